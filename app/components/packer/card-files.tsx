import { Fragment } from "react";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { FileFacts } from "~/modules/orders/declaration";
import { factsText } from "~/modules/packer/facts-text";
import { foldFiles } from "~/modules/packer/card-files";

type CardFile = FileFacts & { name: string };

/** One file as the card names it: its name and its jaw and step, marked while only guessed from the name. */
function NamedFile({ file, last }: { file: CardFile; last: boolean }) {
  const { t } = useTranslation();
  return (
    // One text and one element a file, no separators between texts: a card lists files of every patient (ADR 098).
    <span className="pk-file">
      {`${file.name} `}
      {file.guessed ? <mark>{`(${factsText(t, file)} · ${t("packer.card.guessed")})`}</mark> : <em>{`(${factsText(t, file)})`}</em>}
      {last ? null : ","}
    </span>
  );
}

/** A patient's files of one kind on the packer's card: listed when few, folded into each jaw's steps when many (ADR 098). */
export function CardFiles({ kindLabel, files }: { kindLabel: string; files: readonly CardFile[] }) {
  const { t } = useTranslation();
  const folded = foldFiles(files);
  const list = (named: readonly CardFile[]) =>
    named.map((file, index) => (
      <Fragment key={index}>
        {index > 0 ? " " : null}
        <NamedFile file={file} last={index === named.length - 1} />
      </Fragment>
    ));
  if (folded === null) {
    return (
      <p>
        <i>{`${kindLabel}:`}</i> {list(files)}
      </p>
    );
  }
  const jaws = folded.jaws
    .flatMap(({ jaw, ranges, withoutStep }) => [
      ...(ranges.length ? [t(ranges.length === 1 && !ranges[0]!.includes("–") ? "packer.card.step" : "packer.card.steps", { jaw: t(`packer.jaw.${jaw}`), steps: ranges.join(", ") })] : []),
      ...(withoutStep ? [t("packer.card.noStep", { jaw: t(`packer.jaw.${jaw}`), n: String(withoutStep) })] : []),
    ])
    .join("; ");
  return (
    <p>
      <i>{`${kindLabel}:`}</i> {`${t("packer.card.files", { count: folded.count })} — ${jaws}`}
      {folded.guessed ? <> <mark>{`(${t("packer.card.guessedCount", { n: String(folded.guessed) })})`}</mark></> : null}
      {folded.named.length ? (
        <>
          <br />
          <span className="muted">{t("packer.card.check")}</span> {list(folded.named)}
        </>
      ) : null}
    </p>
  );
}
