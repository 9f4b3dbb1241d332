import { describe, expect, it } from "vitest";
import { withSerializedProvider } from "../../../provider/dynamic/partial-failure";
import { PartialSuccessError, ResourceOperationError } from "../../../provider/shared/errors";

describe("partial failures carry the serialized provider", () => {
  const inputs = { __provider: "exports.handler = …", name: "x" };

  it("adds the inputs' serialized provider to a partial failure's recorded properties", () => {
    const error = new PartialSuccessError("create failed for 1 of 3", "fleet", { deviceIds: {} });
    expect(withSerializedProvider(error, inputs)).toBe(error);
    expect(error.properties).toEqual({ deviceIds: {}, __provider: inputs.__provider });
  });

  it("keeps a serialized provider the properties already carry", () => {
    const error = new PartialSuccessError("failed", "1", { __provider: "own" });
    withSerializedProvider(error, inputs);
    expect(error.properties.__provider).toBe("own");
  });

  it("leaves other failures as they are", () => {
    const error = new ResourceOperationError("failed");
    expect(withSerializedProvider(error, inputs)).toBe(error);
    expect(Object.keys(error)).not.toContain("properties");
  });
});
