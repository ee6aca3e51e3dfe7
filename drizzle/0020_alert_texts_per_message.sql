-- A failed delivery's alert text is now keyed by its message (webhook-id), not by its row, so a replay that fails
-- again is not texted again. The texts already sent keep counting under the new key.
INSERT INTO "alert_texts" ("key", "delivery_id", "created_at")
SELECT 'failed-delivery:' || "deliveries"."webhook_id", "alert_texts"."delivery_id", "alert_texts"."created_at"
FROM "alert_texts"
JOIN "deliveries" ON "alert_texts"."key" = 'failed-delivery:' || "deliveries"."id"
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
DELETE FROM "alert_texts" WHERE "key" ~ '^failed-delivery:[0-9]+$';--> statement-breakpoint
-- Replays were stored without the submission's reference, so they went out without their submission-reference header.
UPDATE "deliveries" SET "reference" = "submissions"."reference"
FROM "submissions"
WHERE "deliveries"."submission_id" = "submissions"."id" AND "deliveries"."reference" = '';
