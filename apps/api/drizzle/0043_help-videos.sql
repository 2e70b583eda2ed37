ALTER TABLE "video" ADD COLUMN "topic" text;--> statement-breakpoint
CREATE INDEX "video_topic_idx" ON "video" USING btree ("account_id","topic","position") WHERE "video"."topic" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "video" ADD CONSTRAINT "video_topic_without_experience" CHECK ("video"."topic" IS NULL OR "video"."experience_id" IS NULL);