ALTER TABLE "backup_runs" ADD COLUMN "copied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "backup_runs" ADD COLUMN "copy_error" text;