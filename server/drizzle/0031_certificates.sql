CREATE TABLE "certificate_auditors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificate_counters" (
	"stem" text PRIMARY KEY NOT NULL,
	"last" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificate_issuances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"certificate_id" uuid NOT NULL,
	"issuer_id" uuid NOT NULL,
	"award_for" text NOT NULL,
	"issue_date" date NOT NULL,
	"source" text NOT NULL,
	"source_id" uuid,
	"state" text NOT NULL,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificate_reviews" (
	"id" uuid PRIMARY KEY NOT NULL,
	"issuance_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"auditor_id" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificate_settings" (
	"customer_id" uuid NOT NULL,
	"review_required" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_settings_customer_id_pk" PRIMARY KEY("customer_id")
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"creator_id" uuid NOT NULL,
	"layout" text NOT NULL,
	"design" jsonb NOT NULL,
	"number_prefix" text DEFAULT '' NOT NULL,
	"number_digits" integer DEFAULT 4 NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_certificates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"issuance_id" uuid NOT NULL,
	"certificate_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"holder_name" text NOT NULL,
	"award_for" text NOT NULL,
	"number" text,
	"design" jsonb,
	"state" text DEFAULT 'valid' NOT NULL,
	"issued_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text,
	"revoked_by" uuid,
	"replaced_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificate_auditors" ADD CONSTRAINT "certificate_auditors_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_auditors" ADD CONSTRAINT "certificate_auditors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_auditors" ADD CONSTRAINT "certificate_auditors_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_issuances" ADD CONSTRAINT "certificate_issuances_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_issuances" ADD CONSTRAINT "certificate_issuances_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_issuances" ADD CONSTRAINT "certificate_issuances_issuer_id_users_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_reviews" ADD CONSTRAINT "certificate_reviews_issuance_id_certificate_issuances_id_fk" FOREIGN KEY ("issuance_id") REFERENCES "public"."certificate_issuances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_reviews" ADD CONSTRAINT "certificate_reviews_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_reviews" ADD CONSTRAINT "certificate_reviews_auditor_id_users_id_fk" FOREIGN KEY ("auditor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_settings" ADD CONSTRAINT "certificate_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_certificates" ADD CONSTRAINT "user_certificates_issuance_id_certificate_issuances_id_fk" FOREIGN KEY ("issuance_id") REFERENCES "public"."certificate_issuances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_certificates" ADD CONSTRAINT "user_certificates_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_certificates" ADD CONSTRAINT "user_certificates_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_certificates" ADD CONSTRAINT "user_certificates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_certificates" ADD CONSTRAINT "user_certificates_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_auditors_customer_user_idx" ON "certificate_auditors" USING btree ("customer_id","user_id");--> statement-breakpoint
CREATE INDEX "certificate_issuances_customer_idx" ON "certificate_issuances" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "certificate_issuances_issuer_idx" ON "certificate_issuances" USING btree ("issuer_id");--> statement-breakpoint
CREATE INDEX "certificate_reviews_issuance_idx" ON "certificate_reviews" USING btree ("issuance_id");--> statement-breakpoint
CREATE INDEX "certificate_reviews_customer_state_idx" ON "certificate_reviews" USING btree ("customer_id","state");--> statement-breakpoint
CREATE INDEX "certificates_customer_idx" ON "certificates" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_certificates_number_idx" ON "user_certificates" USING btree ("number") WHERE "user_certificates"."number" is not null;--> statement-breakpoint
CREATE INDEX "user_certificates_issuance_idx" ON "user_certificates" USING btree ("issuance_id");--> statement-breakpoint
CREATE INDEX "user_certificates_user_idx" ON "user_certificates" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_certificates_customer_idx" ON "user_certificates" USING btree ("customer_id","issued_at");