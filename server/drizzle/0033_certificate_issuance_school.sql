ALTER TABLE "certificate_issuances" ADD COLUMN "school_id" uuid;--> statement-breakpoint
ALTER TABLE "certificate_issuances" ADD CONSTRAINT "certificate_issuances_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificate_issuances_school_idx" ON "certificate_issuances" USING btree ("school_id","created_at");--> statement-breakpoint
UPDATE "certificate_issuances" SET "school_id" = "users"."school_id" FROM "users" WHERE "users"."id" = "certificate_issuances"."issuer_id";
