-- Second-factor secrets are encrypted at rest with DATA_ENCRYPTION_KEY from now on. The users' confirmed
-- secrets are encrypted by the app at start, which holds the key (sealPlainTotpSecrets). A secret still being
-- enrolled lives only on a session; a plain one is dropped, and the page makes a new one at the next visit.
UPDATE "staff_sessions" SET "totp_enrolment_secret" = NULL WHERE "totp_enrolment_secret" NOT LIKE 'v1:%';
--> statement-breakpoint
-- Recovery codes were 40 bits under an unsalted SHA-256, which a copy of the database gives up offline. They
-- cannot be rehashed without the codes, so they are deleted; the two-step page tells each user to make new ones.
DELETE FROM "staff_recovery_codes" WHERE "code_hash" NOT LIKE 'sha256-salted$%';
