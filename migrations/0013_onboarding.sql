ALTER TABLE "shops" ADD COLUMN "storefront_seen_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "onboarding_dismissed_at" timestamp (3) with time zone;