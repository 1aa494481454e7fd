DO $$
DECLARE clash text;
BEGIN
  SELECT string_agg(emails, '; ') INTO clash FROM (
    SELECT string_agg("username" || ' <' || "email" || '>', ', ') AS emails FROM "users"
    WHERE "email" IS NOT NULL
    GROUP BY coalesce("customer_id", '00000000-0000-0000-0000-000000000000'::uuid), lower("email") HAVING count(*) > 1
  ) AS same;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'Emails now ignore case; these accounts of one customer share an email, change all but one first: %', clash;
  END IF;
END $$;--> statement-breakpoint
UPDATE "users" SET "email" = lower("email") WHERE "email" <> lower("email");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_email_lowercase" CHECK ("users"."email" = lower("users"."email"));
