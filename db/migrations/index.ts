import type { Migration } from "kysely";
import * as initial from "./2026-11-22T0900_initial";
import * as statusNotifications from "./2026-11-22T1300_status_notifications";
import * as paymentAttempts from "./2026-11-23T0900_payment_attempts";
import * as partnerEconomics from "./2026-11-24T0900_partner_economics";
import * as translationsVersion from "./2026-11-25T0900_translations_version";
import * as sessionStorage from "./2026-11-26T0900_session_storage";
import * as orderLanguage from "./2026-11-27T0900_order_language";
import * as paymentInvoiceDetails from "./2026-11-27T1000_payment_invoice_details";
import * as orderCodeSpace from "./2026-11-28T0900_order_code_space";
import * as scaleIndexes from "./2026-11-28T1000_scale_indexes";
import * as searchIndexes from "./2026-11-28T1100_search_indexes";
import * as requestReplays from "./2026-11-29T0900_request_replays";
import * as replaySenders from "./2026-11-30T0900_replay_senders";
import * as fileCorrections from "./2026-12-01T0900_file_corrections";
import * as wizardReturn from "./2026-12-01T0900_wizard_return";
import * as statusUndoAndCarrier from "./2026-12-01T1000_status_undo_and_carrier";
import * as storageWalk from "./2026-12-02T0900_storage_walk";
import * as roleChanges from "./2026-12-03T1100_role_changes";
import * as retentionAndMailOutbox from "./2026-12-03T1600_retention_and_mail_outbox";
import * as listKit from "./2026-12-03T0900_list_kit";
import * as packingMarks from "./2026-12-03T1000_packing_marks";
import * as bagScans from "./2026-12-08T2000_bag_scans";
import * as afterPayment from "./2026-12-03T1200_after_payment";
import * as erasureRequests from "./2026-12-04T0900_erasure_requests";
import * as invoices from "./2026-12-04T1000_invoices";
import * as accountingRecords from "./2026-12-05T0900_accounting_records";
import * as housekeepingLease from "./2026-12-06T1400_housekeeping_lease";
import * as orderSenders from "./2026-12-06T1500_order_senders";
import * as declinedSteps from "./2026-12-07T0900_declined_steps";
import * as keptConsent from "./2026-12-07T0910_kept_consent";
import * as patientFileCounts from "./2026-12-08T1200_patient_file_counts";
import * as queueDueState from "./2026-12-08T1300_queue_due_state";
import * as internalClientComment from "./2026-12-08T1400_internal_client_comment";
import * as patientNameSearch from "./2026-12-08T1600_patient_name_search";
import * as orderMessages from "./2026-12-08T2200_order_messages";
import * as queueOfDraft from "./2026-12-08T2300_queue_of_draft";
import * as storageTrashTotals from "./2026-12-08T2310_storage_trash_totals";

/** Every migration, by its frozen name. Listed statically so bundlers and tsx need no directory scan. */
export const migrations: Record<string, Migration> = {
  "2026-11-22T0900_initial": initial,
  "2026-11-22T1300_status_notifications": statusNotifications,
  "2026-11-23T0900_payment_attempts": paymentAttempts,
  "2026-11-24T0900_partner_economics": partnerEconomics,
  "2026-11-25T0900_translations_version": translationsVersion,
  "2026-11-26T0900_session_storage": sessionStorage,
  "2026-11-27T0900_order_language": orderLanguage,
  "2026-11-27T1000_payment_invoice_details": paymentInvoiceDetails,
  "2026-11-28T0900_order_code_space": orderCodeSpace,
  "2026-11-28T1000_scale_indexes": scaleIndexes,
  "2026-11-28T1100_search_indexes": searchIndexes,
  "2026-11-29T0900_request_replays": requestReplays,
  "2026-11-30T0900_replay_senders": replaySenders,
  "2026-12-01T0900_file_corrections": fileCorrections,
  "2026-12-01T0900_wizard_return": wizardReturn,
  "2026-12-01T1000_status_undo_and_carrier": statusUndoAndCarrier,
  "2026-12-02T0900_storage_walk": storageWalk,
  "2026-12-03T1100_role_changes": roleChanges,
  "2026-12-03T1600_retention_and_mail_outbox": retentionAndMailOutbox,
  "2026-12-03T0900_list_kit": listKit,
  "2026-12-03T1000_packing_marks": packingMarks,
  "2026-12-03T1200_after_payment": afterPayment,
  "2026-12-04T0900_erasure_requests": erasureRequests,
  "2026-12-04T1000_invoices": invoices,
  "2026-12-05T0900_accounting_records": accountingRecords,
  "2026-12-06T1400_housekeeping_lease": housekeepingLease,
  "2026-12-06T1500_order_senders": orderSenders,
  "2026-12-07T0900_declined_steps": declinedSteps,
  "2026-12-07T0910_kept_consent": keptConsent,
  "2026-12-08T1200_patient_file_counts": patientFileCounts,
  "2026-12-08T1300_queue_due_state": queueDueState,
  "2026-12-08T1400_internal_client_comment": internalClientComment,
  "2026-12-08T1600_patient_name_search": patientNameSearch,
  "2026-12-08T2000_bag_scans": bagScans,
  "2026-12-08T2200_order_messages": orderMessages,
  "2026-12-08T2300_queue_of_draft": queueOfDraft,
  "2026-12-08T2310_storage_trash_totals": storageTrashTotals,
};
