DROP INDEX "device_runtime_online_idx";--> statement-breakpoint
ALTER TABLE "device_runtime" SET (fillfactor = 70);
