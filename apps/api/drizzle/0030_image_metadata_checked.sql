ALTER TABLE "image" ADD COLUMN "metadata_checked" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "image_unchecked_idx" ON "image" USING btree ("id") WHERE not "image"."metadata_checked";--> statement-breakpoint
-- Originals stored before uploads were re-encoded may carry EXIF and GPS data: the job
-- images-strip-metadata re-encodes them once.
UPDATE "image" SET "metadata_checked" = false WHERE "status" = 'ready' AND "storage_key" IS NOT NULL;
