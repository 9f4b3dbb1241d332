/**
 * When one page of the sorted RPS listing proves a record gone, which page to ask for when none
 * does, and the RPS part of one owner: pure functions.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { ListedPage } from "../../../provider/rps-profile/listing";
import { pageAround, pageProvesAbsent } from "../../../provider/rps-profile/record-lookup";
import { resetOwnership } from "../../../provider/guardrails/ownership";
import {
  claimRpsRecord,
  declareRpsRecord,
  resetRpsOwnership,
  rpsRecordOwner,
} from "../../../provider/guardrails/rps-ownership";

const sn = (i: number) => `AC00000000${String(i).padStart(4, "0")}`;

function page(pageNumber: number, serials: number[], total: number, size = 3): ListedPage {
  return { pageNumber, size, total, records: serials.map((i) => ({ sn: sn(i), profileUrl: "https://p" })) };
}

describe("pageProvesAbsent", () => {
  it("holds when one page has both neighbours of the serial number, in any case", () => {
    expect(pageProvesAbsent(page(2, [4, 6, 7], 9), sn(5))).toBe(true);
    expect(pageProvesAbsent(page(2, [4, 6, 7], 9), sn(5).toLowerCase())).toBe(true);
  });

  it("holds when page 1 starts after it, or the last page ends before it, or the listing is empty", () => {
    expect(pageProvesAbsent(page(1, [4, 6, 7], 9), sn(1))).toBe(true);
    expect(pageProvesAbsent(page(3, [7, 8], 8), sn(9))).toBe(true);
    expect(pageProvesAbsent(page(3, [6, 7, 8], 9), sn(9))).toBe(true); // full, but total reached
    expect(pageProvesAbsent(page(1, [], 0), sn(1))).toBe(true);
  });

  it("does not hold across pages, on a page that has it, or on a page out of order", () => {
    expect(pageProvesAbsent(page(2, [4, 6, 7], 9), sn(3))).toBe(false); // page 1 may hold it
    expect(pageProvesAbsent(page(2, [4, 6, 7], 9), sn(8))).toBe(false); // page 3 may hold it
    expect(pageProvesAbsent(page(2, [4, 5, 7], 9), sn(5))).toBe(false);
    expect(pageProvesAbsent(page(2, [6, 4, 7], 9), sn(5))).toBe(false);
    expect(pageProvesAbsent(page(2, [], 9), sn(5))).toBe(false);
  });
});

describe("pageAround", () => {
  it("asks for the page that holds both neighbours, cutting smaller when a page boundary falls between them", () => {
    expect(pageAround(0, 7)).toEqual({ pageNumber: 1, pageSize: 7 });
    expect(pageAround(3, 7)).toEqual({ pageNumber: 1, pageSize: 7 });
    expect(pageAround(7, 7)).toEqual({ pageNumber: 2, pageSize: 6 }); // positions 6 and 7
    expect(pageAround(12, 6)).toEqual({ pageNumber: 3, pageSize: 5 }); // positions 10–14
    expect(pageAround(5, 1)).toBeUndefined();
  });
});

describe("RPS records: one owner", () => {
  beforeEach(() => {
    resetOwnership();
    resetRpsOwnership();
  });

  it("knows a record another RpsProfile declares or took, in any case, and nothing else", () => {
    expect(rpsRecordOwner(sn(1))).toBeUndefined();
    declareRpsRecord(sn(1).toLowerCase());
    expect(rpsRecordOwner(sn(1))).toBe("declares");
    claimRpsRecord(sn(1));
    expect(rpsRecordOwner(sn(1).toLowerCase())).toBe("took");
    expect(rpsRecordOwner(sn(2))).toBeUndefined();
    resetRpsOwnership();
    expect(rpsRecordOwner(sn(1))).toBeUndefined();
  });
});
