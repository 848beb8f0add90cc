import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDb } from "~/modules/db/db.server";
import { buildBagLabels, type LabelFile } from "~/modules/packer/bag-labels";
import { groupedBagCode } from "~/modules/packer/bag-code";
import { getPackerOrder, type PackerFile } from "~/modules/packer/packer.server";
import { QR_QUIET_ZONE, qrPath } from "~/modules/packer/qr.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { requirePacker } from "~/modules/auth/guards.server";

const labelFiles = (files: PackerFile[]): LabelFile[] => files.map((file) => ({ name: file.name, jaw: file.jaw, stepNumber: file.step }));

export async function loadBagLabelsPage({ request, params, context }: LoaderFunctionArgs) {
  await requirePacker(request, context);
  const order = await getPackerOrder(await getDb(), params.orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  const t = await getRequestTranslator(request, context);
  const labels = buildBagLabels(
    order,
    order.patients.map((patient) => ({
      patientName: patient.name,
      folderName: patient.folder,
      // The jaw and step each file is printed with: declared, or guessed from its name (ADR 058).
      files: { matrix: labelFiles(patient.files.matrix), aligners: labelFiles(patient.files.aligners), retainer: labelFiles(patient.files.retainer) },
    })),
  );
  // Each bag's QR code carries its bag code (ADR 103); a code printed twice (a second file for one step and jaw) is drawn once.
  const codes = [...new Set(labels.map((label) => label.code))];
  return {
    title: t("packer.bags.title", { number: order.number }),
    hasPatients: order.patients.length > 0,
    codes: codes.map((text) => {
      const { size, path } = qrPath(text);
      // The symbol's square, quiet zone included, in module units.
      const side = size + 2 * QR_QUIET_ZONE;
      return { text, path, side, origin: -QR_QUIET_ZONE };
    }),
    labels: labels.map(({ code, ...label }) => ({ ...label, grouped: groupedBagCode(code), code: codes.indexOf(code) })),
  };
}
