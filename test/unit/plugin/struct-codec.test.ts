/**
 * The plugin's own reading and writing of the resource methods' Structs gives what google-protobuf
 * gives, value for value both ways, for any JSON-like value
 * (the properties the engine and the plugin exchange), including keys and strings beyond ASCII. Map
 * entries may come in another order than google-protobuf's (sorted): the engine reads a map.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { providerPb, structPb } from "../../../provider/plugin/server/rpc";
import {
  encodeStructField,
  lazyStruct,
  requestDeserializer,
  responseSerializer,
} from "../../../provider/plugin/server/struct-codec";

type Json = Parameters<typeof structPb.Struct.fromJavaScript>[0];

const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.double({ noNaN: true }),
    fc.integer(),
    fc.string({ unit: "grapheme" }),
    fc.boolean(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: "grapheme" }), tie("value"), { maxKeys: 4 }),
  ),
}));
const struct = fc.dictionary(fc.string({ unit: "grapheme" }), value.value, {
  maxKeys: 6,
}) as fc.Arbitrary<Json>;

describe("the plugin's Struct codec", () => {
  it("writes a response's Structs as google-protobuf does", () => {
    fc.assert(
      fc.property(struct, struct, (inputs, properties) => {
        const expected = new providerPb.ReadResponse();
        expected.setId("42");
        expected.setProperties(structPb.Struct.fromJavaScript(properties));
        expected.setInputs(structPb.Struct.fromJavaScript(inputs));
        const ours = new providerPb.ReadResponse();
        ours.setId("42");
        ours.setProperties(lazyStruct(properties));
        ours.setInputs(lazyStruct(inputs));
        const bytes = responseSerializer({ 2: "Properties", 3: "Inputs" })(ours);
        const decoded = providerPb.ReadResponse.deserializeBinary(bytes);
        expect(decoded.getId()).toBe("42");
        expect(decoded.getProperties()?.toJavaScript()).toEqual(expected.getProperties()?.toJavaScript());
        expect(decoded.getInputs()?.toJavaScript()).toEqual(expected.getInputs()?.toJavaScript());
      }),
    );
  });

  it("reads a request's Structs as google-protobuf does, and the rest with it", () => {
    fc.assert(
      fc.property(struct, struct, (olds, news) => {
        const request = new providerPb.CheckRequest();
        request.setUrn("urn:pulumi:dev::p::devplatform:index:DeviceFleet::f");
        request.setOlds(structPb.Struct.fromJavaScript(olds));
        request.setNews(structPb.Struct.fromJavaScript(news));
        request.setRandomseed(new Uint8Array([1, 2, 3]));
        const bytes = Buffer.from(request.serializeBinary());
        const read = requestDeserializer(providerPb.CheckRequest, { 2: "Olds", 3: "News" })(
          bytes,
        ) as unknown as InstanceType<typeof providerPb.CheckRequest>;
        expect(read.getUrn()).toBe(request.getUrn());
        expect(read.getRandomseed_asU8()).toEqual(new Uint8Array([1, 2, 3]));
        expect(read.getOlds()?.toJavaScript()).toEqual(request.getOlds()?.toJavaScript());
        expect(read.getNews()?.toJavaScript()).toEqual(request.getNews()?.toJavaScript());
      }),
    );
  });

  it("answers a Struct's keys in google-protobuf's order (sorted), whatever order the wire holds", () => {
    // The engine writes a Go map: its entries come in another order at every run. A fleet's plan
    // lists serial numbers in the order of its inputs, so a preview's message would change with it.
    const news = { "240000A10005": { name: "e" }, "240000A10000": { name: "a" }, b: 1, a: { z: 1, y: 2 } };
    const request = new providerPb.CheckRequest();
    request.setUrn("urn:pulumi:dev::p::devplatform:index:DeviceFleet::f");
    const bytes = Buffer.concat([Buffer.from(request.serializeBinary()), encodeStructField(3, news)]);
    const read = requestDeserializer(providerPb.CheckRequest, { 3: "News" })(
      bytes,
    ) as unknown as InstanceType<typeof providerPb.CheckRequest>;
    const theirs = providerPb.CheckRequest.deserializeBinary(bytes).getNews()?.toJavaScript();
    const ours = read.getNews()?.toJavaScript();
    expect(Object.keys(ours ?? {})).toEqual(["240000A10000", "240000A10005", "a", "b"]);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
  });

  it("leaves an absent Struct absent", () => {
    const request = new providerPb.DeleteRequest();
    request.setId("7");
    const read = requestDeserializer(providerPb.DeleteRequest, { 3: "Properties", 5: "OldInputs" })(
      Buffer.from(request.serializeBinary()),
    ) as unknown as InstanceType<typeof providerPb.DeleteRequest>;
    expect(read.getId()).toBe("7");
    expect(read.getProperties()).toBeUndefined();
  });

  it("gives google-protobuf the values of a lazy Struct nested in another message", () => {
    const details = new providerPb.ErrorResourceInitFailed();
    details.setProperties(lazyStruct({ a: [1, "b", { c: null }] }));
    const decoded = providerPb.ErrorResourceInitFailed.deserializeBinary(details.serializeBinary());
    expect(decoded.getProperties()?.toJavaScript()).toEqual({ a: [1, "b", { c: null }] });
  });
});
