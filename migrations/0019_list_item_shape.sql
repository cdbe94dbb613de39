-- For databases that applied an earlier text of 0018, which emptied the stored list items instead
-- of keeping them: they lack the items' shape, which 0018 adds now. Their items (all rendered
-- since, in the current shape) read as shape 15 and are rendered once more in the background: it
-- costs time, not correctness. Where 0018 added the shape, this finds it there.
ALTER TABLE "process_list_items" ADD COLUMN IF NOT EXISTS "shape" smallint DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "process_list_items" ALTER COLUMN "shape" SET DEFAULT 18;
