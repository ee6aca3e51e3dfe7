ALTER TABLE "login_throttles" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "login_throttles" ADD COLUMN "address" text;--> statement-breakpoint
-- An account-wide count now only slows answers down; a lock it set before is lifted.
UPDATE "login_throttles" SET "locked_until" = NULL WHERE "key" LIKE 'account:%';
