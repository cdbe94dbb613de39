-- A change's details are sent to clients exactly as the recorder wrote them (compact JSON), inside
-- the feed's text that PostgreSQL renders; jsonb would re-format them, and nothing queries inside.
-- Changes recorded before keep jsonb's spacing until retention removes them: same JSON values.
ALTER TABLE "process_changes" ALTER COLUMN "details" SET DATA TYPE json USING "details"::json;
