CREATE TABLE "customer_homes" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"banners" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"project_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"footer_sites" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"modules" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_homes" ADD CONSTRAINT "customer_homes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;