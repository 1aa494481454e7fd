ALTER TABLE "course_versions" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "course_versions" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_versions" ADD COLUMN "cover_key" text;--> statement-breakpoint
ALTER TABLE "course_versions" ADD COLUMN "thumb_key" text;--> statement-breakpoint
ALTER TABLE "course_versions" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- Every existing version starts with its course's information as it stands.
UPDATE "course_versions" v SET "name" = c."name", "description" = c."description", "cover_key" = c."cover_key", "thumb_key" = c."thumb_key", "tags" = c."tags" FROM "courses" c WHERE c."id" = v."course_id";--> statement-breakpoint
ALTER TABLE "course_versions" ALTER COLUMN "name" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "courses_direction_idx" ON "courses" USING btree ("direction_id","published_at");--> statement-breakpoint
CREATE INDEX "courses_stage_idx" ON "courses" USING btree ("stage_id","published_at");--> statement-breakpoint
CREATE INDEX "courses_difficulty_idx" ON "courses" USING btree ("difficulty_id","published_at");--> statement-breakpoint
ALTER TABLE "courses" DROP COLUMN "name";--> statement-breakpoint
ALTER TABLE "courses" DROP COLUMN "description";--> statement-breakpoint
ALTER TABLE "courses" DROP COLUMN "cover_key";--> statement-breakpoint
ALTER TABLE "courses" DROP COLUMN "thumb_key";--> statement-breakpoint
ALTER TABLE "courses" DROP COLUMN "tags";