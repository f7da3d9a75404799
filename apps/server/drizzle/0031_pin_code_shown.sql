ALTER TABLE "offline_pin" ADD COLUMN "code_shown_at" timestamp with time zone;--> statement-breakpoint
-- PINs written before the column had their code shown when they were generated.
UPDATE "offline_pin" SET "code_shown_at" = "created_at";
