/** `devplatform:index:getThingModel`: a device's TSL model (Query the TSL Model of a Device). */
import type { TslParameter } from "../../sdk";
import { platformClient } from "../platform-access/platform-client";
import { describeFailure } from "../shared/errors";
import { definedInputs, type Inputs } from "../shared/input-checks";
import { anyValue, list, ref, string, type ObjectTypeSpec, type PropertySpec } from "../core/schema-spec";
import { ArgumentChecker } from "./arguments";
import type { PackageFunction } from "./package-function";
import { withExamples } from "../core/schema-examples";
import { GET_THING_MODEL_EXAMPLES } from "./examples";

const NAME = "getThingModel";

const identity: Record<string, PropertySpec> = {
  id: string("The id (a STRUCT child's id is `parent.child`)."),
  name: string("Display name."),
  description: string("Description."),
};

const dataSpec = anyValue(
  "The data definition: `dataType`, `defaultValue`, `validator` (`min`, `max`, `minSize`, `maxSize`), " +
    "`mapping`, `unitName`, … — its keys vary with the device model.",
);

function objectType(description: string, properties: Record<string, PropertySpec>): ObjectTypeSpec {
  return { type: "object", description, properties, required: ["id"] };
}

const types: Record<string, ObjectTypeSpec> = {
  TslProperty: objectType("A property of a TSL model.", {
    ...identity,
    propertyKey: string("The property's key."),
    accessMode: string("`R`, `W` or `RW`: a DeviceConfig writes only `W` and `RW` properties."),
    dataSpec,
  }),
  TslParameter: objectType("An input or output parameter of a TSL event or service.", {
    ...identity,
    propertyKey: string("The parameter's key."),
    dataSpec,
    ref: string("The property the parameter refers to, if any."),
  }),
  TslEvent: objectType("An event of a TSL model.", {
    ...identity,
    type: string("`INFO`, `WARN` or `ERROR`."),
    outputs: list(ref("TslParameter"), "The data the device reports with the event."),
  }),
  TslService: objectType("A service of a TSL model, invoked downward to the device.", {
    ...identity,
    callType: string("`SYNC` or `ASYNC`."),
    inputs: list(ref("TslParameter"), "The service's input parameters."),
    outputs: list(ref("TslParameter"), "The service's output parameters."),
  }),
};

function parameter(value: TslParameter): Inputs {
  return definedInputs({ ...value });
}

/** The getThingModel function. */
export const getThingModel: PackageFunction = {
  spec: {
    description: withExamples(
      "The TSL model of a device (Query the TSL Model of a Device): the properties a DeviceConfig may set, with " +
        "their data types and rules, and the device's events and services.",
      GET_THING_MODEL_EXAMPLES,
    ),
    inputs: {
      properties: { deviceId: string("The device's id: a string of digits.") },
      required: ["deviceId"],
    },
    outputs: {
      properties: {
        deviceId: string("The device's id, as given."),
        version: string("The model's version, when the platform reports it."),
        properties: list(ref("TslProperty"), "The model's properties."),
        events: list(ref("TslEvent"), "The model's events."),
        services: list(ref("TslService"), "The model's services."),
      },
      required: ["deviceId", "properties", "events", "services"],
    },
  },
  types: { objects: types },

  async invoke(args) {
    new ArgumentChecker(NAME, args, ["deviceId"])
      .string("deviceId", {
        required: true,
        pattern: /^\d+$/,
        patternRule: "must be a deviceId, a string of digits",
      })
      .done();
    const deviceId = args.deviceId as string;
    return describeFailure(`${NAME} deviceId=${deviceId}`, async () => {
      const model = await (await platformClient()).getThingModel(deviceId);
      return definedInputs({
        deviceId,
        version: model.version,
        properties: model.properties.map((property) => definedInputs({ ...property })),
        events: model.events.map((event) =>
          definedInputs({ ...event, outputs: event.outputs.map(parameter) }),
        ),
        services: model.services.map((service) =>
          definedInputs({
            ...service,
            inputs: service.inputs.map(parameter),
            outputs: service.outputs.map(parameter),
          }),
        ),
      });
    });
  },
};
