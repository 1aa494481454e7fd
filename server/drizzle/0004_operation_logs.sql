CREATE TABLE "operation_logs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid,
	"operator_id" uuid,
	"operator_name" text DEFAULT '' NOT NULL,
	"module" text NOT NULL,
	"operation" text NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operation_logs" ADD CONSTRAINT "operation_logs_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operation_logs_customer_time_idx" ON "operation_logs" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "operation_logs_operator_idx" ON "operation_logs" USING btree ("operator_id");