CREATE TABLE "event_certificate_issuances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"issuance_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_evaluations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"track_id" text NOT NULL,
	"script_key" text NOT NULL,
	"answers_key" text NOT NULL,
	"answers_name" text NOT NULL,
	"updated_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_judges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"group_no" integer NOT NULL,
	"school_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_registrations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"track_id" text NOT NULL,
	"team_name" text NOT NULL,
	"leader_id" uuid NOT NULL,
	"customer_id" uuid,
	"school_id" uuid,
	"state" text DEFAULT 'inProgress' NOT NULL,
	"refuse_reason" text,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"track_id" text NOT NULL,
	"registration_id" uuid NOT NULL,
	"submitted_by" uuid NOT NULL,
	"predictions_key" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"score" double precision,
	"error" text,
	"platform_fault" boolean DEFAULT false NOT NULL,
	"day" date NOT NULL,
	"claimed_by" text,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "event_scores" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"work_id" uuid NOT NULL,
	"judge_user_id" uuid NOT NULL,
	"scores" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"overall" double precision,
	"total" double precision,
	"comment" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"reopen_reason" text,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_team_members" (
	"id" uuid PRIMARY KEY NOT NULL,
	"registration_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"role" text NOT NULL,
	"position" integer NOT NULL,
	"user_id" uuid,
	"name" text NOT NULL,
	"photo_key" text,
	"birthday" date,
	"ethnicity" text DEFAULT '' NOT NULL,
	"document_type" text,
	"document_number" text DEFAULT '' NOT NULL,
	"school" text DEFAULT '' NOT NULL,
	"grade" text DEFAULT '' NOT NULL,
	"student_number" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"qq" text DEFAULT '' NOT NULL,
	"wechat" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"district" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_works" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"registration_id" uuid NOT NULL,
	"track_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"link" text DEFAULT '' NOT NULL,
	"cover_key" text,
	"video_key" text,
	"project_id" uuid,
	"project_version_id" uuid,
	"state" text DEFAULT 'DRAFT' NOT NULL,
	"fail_reason" text,
	"judge_group" integer,
	"score" double precision,
	"rank" integer,
	"award" text,
	"submitted_at" timestamp with time zone,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid,
	"name" text NOT NULL,
	"cover_key" text,
	"description" text DEFAULT '' NOT NULL,
	"tracks" jsonb NOT NULL,
	"registration_start" timestamp with time zone NOT NULL,
	"registration_end" timestamp with time zone NOT NULL,
	"submission_start" timestamp with time zone NOT NULL,
	"submission_end" timestamp with time zone NOT NULL,
	"review_start" timestamp with time zone NOT NULL,
	"review_end" timestamp with time zone NOT NULL,
	"results_at" timestamp with time zone NOT NULL,
	"eligibility" jsonb NOT NULL,
	"team_min" integer DEFAULT 1 NOT NULL,
	"team_max" integer DEFAULT 3 NOT NULL,
	"mentor_min" integer DEFAULT 1 NOT NULL,
	"mentor_max" integer DEFAULT 2 NOT NULL,
	"awards" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tie_rule" text DEFAULT 'earlierSubmission' NOT NULL,
	"review" jsonb,
	"results_published_at" timestamp with time zone,
	"organiser_id" uuid NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_certificate_issuances" ADD CONSTRAINT "event_certificate_issuances_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_certificate_issuances" ADD CONSTRAINT "event_certificate_issuances_issuance_id_certificate_issuances_id_fk" FOREIGN KEY ("issuance_id") REFERENCES "public"."certificate_issuances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_evaluations" ADD CONSTRAINT "event_evaluations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_evaluations" ADD CONSTRAINT "event_evaluations_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_judges" ADD CONSTRAINT "event_judges_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_judges" ADD CONSTRAINT "event_judges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_judges" ADD CONSTRAINT "event_judges_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_leader_id_users_id_fk" FOREIGN KEY ("leader_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_runs" ADD CONSTRAINT "event_runs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_runs" ADD CONSTRAINT "event_runs_registration_id_event_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."event_registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_runs" ADD CONSTRAINT "event_runs_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_scores" ADD CONSTRAINT "event_scores_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_scores" ADD CONSTRAINT "event_scores_work_id_event_works_id_fk" FOREIGN KEY ("work_id") REFERENCES "public"."event_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_scores" ADD CONSTRAINT "event_scores_judge_user_id_users_id_fk" FOREIGN KEY ("judge_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_team_members" ADD CONSTRAINT "event_team_members_registration_id_event_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."event_registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_team_members" ADD CONSTRAINT "event_team_members_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_team_members" ADD CONSTRAINT "event_team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_works" ADD CONSTRAINT "event_works_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_works" ADD CONSTRAINT "event_works_registration_id_event_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."event_registrations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_works" ADD CONSTRAINT "event_works_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_works" ADD CONSTRAINT "event_works_project_version_id_project_versions_id_fk" FOREIGN KEY ("project_version_id") REFERENCES "public"."project_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_works" ADD CONSTRAINT "event_works_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_organiser_id_users_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_evaluations_track" ON "event_evaluations" USING btree ("event_id","track_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_judges_user" ON "event_judges" USING btree ("event_id","user_id");--> statement-breakpoint
CREATE INDEX "event_judges_user_idx" ON "event_judges" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "event_registrations_event_idx" ON "event_registrations" USING btree ("event_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "event_registrations_team_name" ON "event_registrations" USING btree ("event_id","team_name");--> statement-breakpoint
CREATE INDEX "event_runs_queue_idx" ON "event_runs" USING btree ("state","queued_at");--> statement-breakpoint
CREATE INDEX "event_runs_team_idx" ON "event_runs" USING btree ("registration_id","track_id","day");--> statement-breakpoint
CREATE INDEX "event_runs_ladder_idx" ON "event_runs" USING btree ("event_id","track_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "event_scores_work_judge" ON "event_scores" USING btree ("work_id","judge_user_id");--> statement-breakpoint
CREATE INDEX "event_scores_event_idx" ON "event_scores" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "event_team_members_registration_idx" ON "event_team_members" USING btree ("registration_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_team_members_user" ON "event_team_members" USING btree ("event_id","user_id") WHERE "event_team_members"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "event_works_event_idx" ON "event_works" USING btree ("event_id","state");--> statement-breakpoint
CREATE INDEX "event_works_registration_idx" ON "event_works" USING btree ("registration_id");--> statement-breakpoint
CREATE INDEX "event_works_rank_idx" ON "event_works" USING btree ("event_id","rank");--> statement-breakpoint
CREATE INDEX "events_customer_idx" ON "events" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "events_registration_start_idx" ON "events" USING btree ("registration_start");