CREATE TABLE "compute_allowances" (
	"customer_id" uuid NOT NULL,
	"runtime_type" text NOT NULL,
	"weekly_minutes" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "compute_allowances_customer_id_runtime_type_pk" PRIMARY KEY("customer_id","runtime_type")
);
--> statement-breakpoint
CREATE TABLE "compute_usage" (
	"user_id" uuid NOT NULL,
	"customer_id" uuid,
	"runtime_type" text NOT NULL,
	"week_start" date NOT NULL,
	"used_minutes" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "compute_usage_user_id_runtime_type_week_start_pk" PRIMARY KEY("user_id","runtime_type","week_start")
);
--> statement-breakpoint
CREATE TABLE "package_operations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"customer_id" uuid,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT 'init' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "project_collaborators" (
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"customer_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_collaborators_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "project_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"customer_id" uuid,
	"major" integer NOT NULL,
	"minor" integer NOT NULL,
	"revision" integer NOT NULL,
	"description" text NOT NULL,
	"snapshot_no" integer NOT NULL,
	"file_count" integer DEFAULT 0 NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_versions_number" UNIQUE("project_id","major","minor","revision"),
	CONSTRAINT "project_versions_snapshot" UNIQUE("project_id","snapshot_no"),
	CONSTRAINT "project_versions_segments" CHECK ("project_versions"."major" between 0 and 100 and "project_versions"."minor" between 0 and 100 and "project_versions"."revision" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" serial NOT NULL,
	"customer_id" uuid,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"access" text DEFAULT 'private' NOT NULL,
	"type" text DEFAULT '' NOT NULL,
	"runtime_type" text DEFAULT 'BASIC' NOT NULL,
	"framework" text DEFAULT '' NOT NULL,
	"label_file" text DEFAULT '' NOT NULL,
	"course_tag" text DEFAULT '' NOT NULL,
	"direction" text DEFAULT '' NOT NULL,
	"study_section" text DEFAULT '' NOT NULL,
	"tool" text DEFAULT '' NOT NULL,
	"forked_from" uuid,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_seq_unique" UNIQUE("seq"),
	CONSTRAINT "projects_public_final" CHECK ("projects"."published_at" is null or "projects"."access" <> 'private')
);
--> statement-breakpoint
CREATE TABLE "runtimes" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid,
	"started_by" uuid,
	"runtime_type" text NOT NULL,
	"state" text DEFAULT 'NA' NOT NULL,
	"stop_reason" text,
	"started_at" timestamp with time zone,
	"debited_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "compute_allowances" ADD CONSTRAINT "compute_allowances_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compute_usage" ADD CONSTRAINT "compute_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compute_usage" ADD CONSTRAINT "compute_usage_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_operations" ADD CONSTRAINT "package_operations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_operations" ADD CONSTRAINT "package_operations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_operations" ADD CONSTRAINT "package_operations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_collaborators" ADD CONSTRAINT "project_collaborators_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_collaborators" ADD CONSTRAINT "project_collaborators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_collaborators" ADD CONSTRAINT "project_collaborators_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_versions" ADD CONSTRAINT "project_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_versions" ADD CONSTRAINT "project_versions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_versions" ADD CONSTRAINT "project_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_forked_from_projects_id_fk" FOREIGN KEY ("forked_from") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runtimes" ADD CONSTRAINT "runtimes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runtimes" ADD CONSTRAINT "runtimes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runtimes" ADD CONSTRAINT "runtimes_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "package_operations_project_idx" ON "package_operations" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "project_collaborators_user_idx" ON "project_collaborators" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "projects_customer_access_idx" ON "projects" USING btree ("customer_id","access");--> statement-breakpoint
CREATE INDEX "projects_owner_idx" ON "projects" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "runtimes_customer_state_idx" ON "runtimes" USING btree ("customer_id","state");--> statement-breakpoint
CREATE INDEX "runtimes_user_idx" ON "runtimes" USING btree ("started_by");