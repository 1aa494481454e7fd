CREATE TABLE "schedule_classes" (
	"schedule_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	CONSTRAINT "schedule_classes_schedule_id_class_id_pk" PRIMARY KEY("schedule_id","class_id")
);
--> statement-breakpoint
CREATE TABLE "schedule_courses" (
	"schedule_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"version_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "schedule_courses_schedule_id_course_id_pk" PRIMARY KEY("schedule_id","course_id")
);
--> statement-breakpoint
CREATE TABLE "schedule_students" (
	"schedule_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "schedule_students_schedule_id_user_id_pk" PRIMARY KEY("schedule_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "schedule_task_reopenings" (
	"schedule_task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"due_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_task_reopenings_schedule_task_id_user_id_pk" PRIMARY KEY("schedule_task_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "schedule_tasks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"schedule_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"due_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_tasks_once" UNIQUE("schedule_id","task_id")
);
--> statement-breakpoint
CREATE TABLE "schedule_teachers" (
	"schedule_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "schedule_teachers_schedule_id_user_id_pk" PRIMARY KEY("schedule_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "teaching_schedules" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"school_id" uuid NOT NULL,
	"name" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'notStarted' NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "task_attempts" ADD COLUMN "auto_score" integer;--> statement-breakpoint
ALTER TABLE "schedule_classes" ADD CONSTRAINT "schedule_classes_schedule_id_teaching_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."teaching_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_classes" ADD CONSTRAINT "schedule_classes_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_courses" ADD CONSTRAINT "schedule_courses_schedule_id_teaching_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."teaching_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_courses" ADD CONSTRAINT "schedule_courses_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_courses" ADD CONSTRAINT "schedule_courses_version_id_course_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."course_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_students" ADD CONSTRAINT "schedule_students_schedule_id_teaching_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."teaching_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_students" ADD CONSTRAINT "schedule_students_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_task_reopenings" ADD CONSTRAINT "schedule_task_reopenings_schedule_task_id_schedule_tasks_id_fk" FOREIGN KEY ("schedule_task_id") REFERENCES "public"."schedule_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_task_reopenings" ADD CONSTRAINT "schedule_task_reopenings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_task_reopenings" ADD CONSTRAINT "schedule_task_reopenings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_tasks" ADD CONSTRAINT "schedule_tasks_schedule_id_teaching_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."teaching_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_tasks" ADD CONSTRAINT "schedule_tasks_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_tasks" ADD CONSTRAINT "schedule_tasks_task_id_course_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."course_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_tasks" ADD CONSTRAINT "schedule_tasks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_teachers" ADD CONSTRAINT "schedule_teachers_schedule_id_teaching_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."teaching_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_teachers" ADD CONSTRAINT "schedule_teachers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teaching_schedules" ADD CONSTRAINT "teaching_schedules_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teaching_schedules" ADD CONSTRAINT "teaching_schedules_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teaching_schedules" ADD CONSTRAINT "teaching_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schedule_classes_class_idx" ON "schedule_classes" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "schedule_students_user_idx" ON "schedule_students" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "schedule_tasks_task_idx" ON "schedule_tasks" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "schedule_teachers_user_idx" ON "schedule_teachers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "teaching_schedules_customer_idx" ON "teaching_schedules" USING btree ("customer_id","status");--> statement-breakpoint
CREATE INDEX "teaching_schedules_school_idx" ON "teaching_schedules" USING btree ("school_id");--> statement-breakpoint
ALTER TABLE "task_attempts" ADD CONSTRAINT "task_attempts_auto_score_range" CHECK ("task_attempts"."auto_score" is null or ("task_attempts"."auto_score" between 0 and 100));