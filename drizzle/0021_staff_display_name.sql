ALTER TABLE "staff_users" ADD COLUMN "display_name" text;--> statement-breakpoint
UPDATE "staff_users" SET "display_name" = "username";--> statement-breakpoint
ALTER TABLE "staff_users" ALTER COLUMN "display_name" SET NOT NULL;
