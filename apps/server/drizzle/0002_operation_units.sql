CREATE TABLE "operation_unit" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"name" text NOT NULL,
	"menu_name" text,
	"parent_id" text,
	"sort_index" integer DEFAULT 0 NOT NULL,
	"station_id" text NOT NULL,
	"type_id" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "operation_unit_parent_idx" ON "operation_unit" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "operation_unit_station_idx" ON "operation_unit" USING btree ("station_id");