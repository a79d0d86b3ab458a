import { sql, type Kysely } from "kysely";

/**
 * The operator's product search, accent-insensitive like every other search of the app: an FTS5
 * index of each product's name and SKU (rowid = product id), kept by triggers. Before, a LIKE over
 * the name found «válvula» but not «valvula».
 */
const TOKENIZER = `tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8'`;

const statements = [
  `CREATE VIRTUAL TABLE product_search USING fts5(name, sku, ${TOKENIZER})`,
  `INSERT INTO product_search (rowid, name, sku) SELECT id, name, coalesce(sku, '') FROM products`,
  `CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN
    INSERT INTO product_search (rowid, name, sku) VALUES (NEW.id, NEW.name, coalesce(NEW.sku, ''));
  END`,
  `CREATE TRIGGER products_search_update AFTER UPDATE OF name, sku ON products
  WHEN OLD.name IS NOT NEW.name OR OLD.sku IS NOT NEW.sku BEGIN
    UPDATE product_search SET name = NEW.name, sku = coalesce(NEW.sku, '') WHERE rowid = NEW.id;
  END`,
  `CREATE TRIGGER products_search_delete AFTER DELETE ON products BEGIN
    DELETE FROM product_search WHERE rowid = OLD.id;
  END`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ["insert", "update", "delete"])
    await sql.raw(`DROP TRIGGER IF EXISTS products_search_${trigger}`).execute(db);
  await sql`DROP TABLE IF EXISTS product_search`.execute(db);
}
