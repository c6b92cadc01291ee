import type { Migration, MigrationProvider } from "kysely";
import * as m001 from "./001_initial.js";
import * as m002 from "./002_accounts.js";
import * as m003 from "./003_search.js";
import * as m004 from "./004_documents.js";
import * as m005 from "./005_shared_state.js";
import * as m006 from "./006_examiners.js";
import * as m007 from "./007_single_sign_on.js";
import * as m008 from "./008_list_at_scale.js";
import * as m009 from "./009_dashboard_at_scale.js";
import * as m010 from "./010_search_postings.js";
import * as m011 from "./011_overdue_examinations.js";
import * as m012 from "./012_overdue_report_totals.js";
import * as m013 from "./013_pending_uploads.js";
import * as m014 from "./014_mail_secrets.js";
import * as m015 from "./015_examiner_links.js";
import * as m016 from "./016_publication.js";
import * as m017 from "./017_api_tokens.js";
import * as m018 from "./018_webhooks.js";
import * as m019 from "./019_report_rollups.js";
import * as m020 from "./020_deposits.js";
import * as m021 from "./021_public_downloads.js";
import * as m022 from "./022_report_open_rollups.js";
import * as m023 from "./023_public_search.js";
import * as m024 from "./024_publication_datestamp_on_edit.js";
import * as m025 from "./025_public_keywords.js";
import * as m026 from "./026_public_list_order.js";
import * as m027 from "./027_public_keywords_by_thesis.js";
import * as m028 from "./028_public_search_words.js";

/**
 * Migrations are listed here rather than read from the folder, so the same list works from
 * TypeScript sources (tests, tsx) and from the compiled build. Names sort in the order they run.
 */
const migrations: Record<string, Migration> = {
  "001_initial": m001,
  "002_accounts": m002,
  "003_search": m003,
  "004_documents": m004,
  "005_shared_state": m005,
  "006_examiners": m006,
  "007_single_sign_on": m007,
  "008_list_at_scale": m008,
  "009_dashboard_at_scale": m009,
  "010_search_postings": m010,
  "011_overdue_examinations": m011,
  "012_overdue_report_totals": m012,
  "013_pending_uploads": m013,
  "014_mail_secrets": m014,
  "015_examiner_links": m015,
  "016_publication": m016,
  "017_api_tokens": m017,
  "018_webhooks": m018,
  "019_report_rollups": m019,
  "020_deposits": m020,
  "021_public_downloads": m021,
  "022_report_open_rollups": m022,
  "023_public_search": m023,
  "024_publication_datestamp_on_edit": m024,
  "025_public_keywords": m025,
  "026_public_list_order": m026,
  "027_public_keywords_by_thesis": m027,
  "028_public_search_words": m028,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
