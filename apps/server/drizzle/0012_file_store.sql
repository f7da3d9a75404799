CREATE TABLE "file" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"owner_id" text,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"display_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ref_type" text,
	"ref_id" text,
	"attached_at" timestamp with time zone,
	"detached_at" timestamp with time zone,
	"deleting_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "file_ref_idx" ON "file" USING btree ("ref_type","ref_id");--> statement-breakpoint
CREATE INDEX "file_owner_pending_idx" ON "file" USING btree ("owner_id") WHERE "file"."ref_type" is null;--> statement-breakpoint
CREATE INDEX "file_unreferenced_idx" ON "file" USING btree (coalesce("detached_at", "created_at")) WHERE "file"."ref_type" is null;