ALTER TABLE "daily_rule_stats" ADD COLUMN "offers_shown" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Back-fill from the stored events' own counts: choices_shown and gifts_added are the rollup of
-- the events received on that day, kept when retention prunes the raw events, and a day counted
-- from raw events alone could show offers on days the rollup has no adds for (it starts at 0012).
-- An auto_add rule (absent actionType: the default) is shown by its adds, any other by its
-- choices; a deleted rule keeps choices_shown, the old funnel's "shown".
UPDATE "daily_rule_stats" s
   SET "offers_shown" = CASE
         WHEN coalesce(r."options" ->> 'actionType', 'auto_add') = 'auto_add' THEN s."gifts_added"
         ELSE s."choices_shown"
       END
  FROM "rules" r
 WHERE r."shop_id" = s."shop_id" AND r."id" = s."rule_id";--> statement-breakpoint
UPDATE "daily_rule_stats" s
   SET "offers_shown" = s."choices_shown"
 WHERE NOT EXISTS (SELECT 1 FROM "rules" r WHERE r."shop_id" = s."shop_id" AND r."id" = s."rule_id");
