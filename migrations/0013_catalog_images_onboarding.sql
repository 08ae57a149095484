ALTER TABLE "products" ADD COLUMN "image_url" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "storefront_seen_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "onboarding_dismissed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "price" bigint;