import { describe, expect, it, vi } from "vitest";
import type { DB } from "~/modules/db/db.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { discardUnrecorded, settleWhenAnswered } from "./unrecorded.server";

describe("settleWhenAnswered", () => {
  it("waits for the database, then deletes only what it does not record", async () => {
    let asked = 0;
    const remove = vi.fn(async () => undefined);
    const outcome = await settleWhenAnswered({
      keys: ["order_1/a.stl", "order_1/b.stl"],
      recorded: async () => {
        if (++asked < 3) throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
        return new Set(["order_1/a.stl"]);
      },
      remove,
      intervalMs: 1,
    });
    expect(outcome).toBe("removed");
    expect(asked).toBe(3);
    expect(remove).toHaveBeenCalledExactlyOnceWith(["order_1/b.stl"]);
  });

  it("keeps everything the database records (the commit went through)", async () => {
    const remove = vi.fn(async () => undefined);
    expect(await settleWhenAnswered({ keys: ["k1", "k2"], recorded: async () => new Set(["k1", "k2", "other"]), remove, intervalMs: 1 })).toBe("kept");
    expect(remove).not.toHaveBeenCalled();
  });

  it("gives up, deleting nothing, when the database never answers", async () => {
    const remove = vi.fn(async () => undefined);
    const silent = async (): Promise<Set<string>> => {
      throw new Error("Connection terminated unexpectedly");
    };
    expect(await settleWhenAnswered({ keys: ["k1"], recorded: silent, remove, intervalMs: 1, giveUpAfterMs: 20 })).toBe("gave up");
    expect(remove).not.toHaveBeenCalled();
  });
});

describe("discardUnrecorded", () => {
  const storage = () => ({ delete: vi.fn(async () => undefined) }) as unknown as FileStorage & { delete: ReturnType<typeof vi.fn> };

  it("deletes at once after an ordinary failure (the transaction rolled back)", async () => {
    const files = storage();
    await discardUnrecorded({} as DB, files, "order-1", ["k1"], new Error("the order is frozen"));
    expect(files.delete).toHaveBeenCalledExactlyOnceWith("orders", ["k1"], { unrecorded: true });
  });

  it("keeps the objects for now when the database went away (the commit may have happened)", async () => {
    const files = storage();
    const db = { selectFrom: vi.fn(() => { throw new Error("not asked yet"); }) } as unknown as DB;
    await discardUnrecorded(db, files, "order-1", ["k1"], Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }));
    expect(files.delete).not.toHaveBeenCalled();
  });
});
