-- A stored file is a photo, a PDF or a resume: already compressed. PostgreSQL's default for bytea (EXTENDED)
-- runs pglz over each value first, which for a 2.5 MB photo takes about 0.1 s and gains nothing. EXTERNAL keeps
-- the value out of line, as before, without that attempt.
ALTER TABLE "submission_files" ALTER COLUMN "content" SET STORAGE EXTERNAL;
