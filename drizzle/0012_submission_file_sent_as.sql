ALTER TABLE "submission_files" ADD COLUMN "sent_as" text;--> statement-breakpoint
-- Uploads stored before this change (resumes, checklist photos) are served under generated names from now on,
-- as new ones are: REF-field[-n].ext, the sender's name kept, cleaned, as text.
UPDATE "submission_files" AS f
SET "sent_as" = left(regexp_replace(f."file_name", E'[\\x01-\\x1f\\x7f\\u00ad\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2069\\ufeff]', '', 'g'), 200),
    "file_name" = n.name
FROM (
  SELECT f2.id,
    s.reference || '-' || f2.field_name
      || CASE WHEN count(*) OVER (PARTITION BY f2.submission_id, f2.field_name) > 1
           THEN '-' || row_number() OVER (PARTITION BY f2.submission_id, f2.field_name ORDER BY f2.id) ELSE '' END
      || '.' || CASE f2.content_type WHEN 'application/pdf' THEN 'pdf' WHEN 'image/jpeg' THEN 'jpg'
           WHEN 'image/png' THEN 'png' WHEN 'image/webp' THEN 'webp' ELSE 'bin' END AS name
  FROM "submission_files" AS f2 JOIN "submissions" AS s ON s.id = f2.submission_id
  WHERE f2.field_name IN ('resume', 'photos')
) AS n
WHERE n.id = f.id;
