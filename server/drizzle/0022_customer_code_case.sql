DO $$
DECLARE clash text;
BEGIN
  SELECT string_agg(codes, '; ') INTO clash FROM (
    SELECT string_agg("code", ', ') AS codes FROM "customers" GROUP BY lower("code") HAVING count(*) > 1
  ) AS same;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'Customer codes now ignore case; these customers share a code, change all but one first: %', clash;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_code_unique";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_code_ci" ON "customers" USING btree (lower("code"));