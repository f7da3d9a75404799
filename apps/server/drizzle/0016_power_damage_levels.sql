CREATE TABLE "damage_level" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"level" integer NOT NULL,
	"description" text,
	"start_value" numeric(12, 2) NOT NULL,
	"end_value" numeric(12, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "damage_level_range_ck" CHECK ("damage_level"."start_value" < "damage_level"."end_value")
);
--> statement-breakpoint
CREATE TABLE "power_level" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"level" integer NOT NULL,
	"start_value" numeric(12, 2) NOT NULL,
	"end_value" numeric(12, 2) NOT NULL,
	"available_days" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'normal' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "power_level_range_ck" CHECK ("power_level"."start_value" < "power_level"."end_value")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "damage_level_level_uq" ON "damage_level" USING btree ("level");--> statement-breakpoint
CREATE UNIQUE INDEX "power_level_level_uq" ON "power_level" USING btree ("level");