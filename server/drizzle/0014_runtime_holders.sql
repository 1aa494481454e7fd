CREATE TABLE "server_instances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "runtimes" ADD COLUMN "holder" uuid;--> statement-breakpoint
CREATE INDEX "runtimes_holder_idx" ON "runtimes" USING btree ("holder");