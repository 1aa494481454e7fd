-- A customer's course packages were free text beside the catalogue's packages; the package's customer list is now
-- the one record. A name that matches a package is kept as that package given to the customer.
UPDATE "course_packages" p SET "customer_ids" = p."customer_ids" || ARRAY(
  SELECT c."id" FROM "customers" c
  WHERE p."name" = ANY(c."course_packages") AND NOT (c."id" = ANY(p."customer_ids"))
);--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "course_packages";
