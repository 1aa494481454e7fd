CREATE TABLE "experiment_checks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"course_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"question_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"customer_id" uuid,
	"project_id" uuid,
	"trial" text,
	"status" text NOT NULL,
	"score" integer,
	"tests" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reason" text,
	"detail" text DEFAULT '' NOT NULL,
	"holder" text,
	"duration_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "experiment_checks_score_range" CHECK ("experiment_checks"."score" is null or ("experiment_checks"."score" between 0 and 100))
);
--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "starter" text;--> statement-breakpoint
ALTER TABLE "task_attempts" ADD COLUMN "checks" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "environment" text DEFAULT 'python' NOT NULL;--> statement-breakpoint
ALTER TABLE "experiment_checks" ADD CONSTRAINT "experiment_checks_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_checks" ADD CONSTRAINT "experiment_checks_task_id_course_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."course_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_checks" ADD CONSTRAINT "experiment_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_checks" ADD CONSTRAINT "experiment_checks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_checks" ADD CONSTRAINT "experiment_checks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "experiment_checks_learner_idx" ON "experiment_checks" USING btree ("task_id","user_id","question_id","created_at");--> statement-breakpoint
CREATE INDEX "experiment_checks_user_idx" ON "experiment_checks" USING btree ("user_id","created_at");