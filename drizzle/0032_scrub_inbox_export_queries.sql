-- An export's record keeps its filters' names only: the values (a search is a customer's name) recorded before go.
UPDATE "inbox_exports" SET "query" = regexp_replace("query", '=[^&]*', '', 'g') WHERE "query" LIKE '%=%';
