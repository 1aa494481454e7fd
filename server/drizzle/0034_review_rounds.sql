CREATE TABLE "event_work_rounds" (
	"work_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"group_no" integer NOT NULL,
	"score" double precision NOT NULL,
	"advanced" boolean NOT NULL,
	CONSTRAINT "event_work_rounds_work_id_round_pk" PRIMARY KEY("work_id","round")
);
--> statement-breakpoint
DROP INDEX "event_judges_user";--> statement-breakpoint
DROP INDEX "event_scores_work_judge";--> statement-breakpoint
ALTER TABLE "event_judges" ADD COLUMN "round" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_scores" ADD COLUMN "round" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_works" ADD COLUMN "review_round" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "review_round" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_work_rounds" ADD CONSTRAINT "event_work_rounds_work_id_event_works_id_fk" FOREIGN KEY ("work_id") REFERENCES "public"."event_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_judges_round_user" ON "event_judges" USING btree ("event_id","round","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_scores_work_round_judge" ON "event_scores" USING btree ("work_id","round","judge_user_id");