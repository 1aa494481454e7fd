CREATE TABLE "system_settings" (
	"id" text PRIMARY KEY DEFAULT 'platform' NOT NULL,
	"platform_name" text,
	"logo_key" text,
	"is_customer_single" boolean,
	"is_verify_code" boolean,
	"compute_weekly_minutes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "system_settings_single_row" CHECK ("system_settings"."id" = 'platform')
);
