/**
 * TSL models for the validator's unit tests, written as the platform sends them and parsed with the
 * SDK's schema, so that the tests see exactly what the provider sees.
 */
import { thingModelSchema, type ThingModel } from "../../../sdk";
import { indexModel, type IndexedModel } from "../../../provider/tsl/model-index";

/** A device id above 2^53, as the platform issues them. */
export const DEVICE = "9007199254741001";

const bool = { false: "Off", true: "On" };

/** One model with every dataType, validator, access mode and STRUCT/ARRAY shape under test. */
export const FIXTURE_MODEL: ThingModel = thingModelSchema.parse({
  version: "1.0.0",
  properties: [
    { id: "serialNumber", accessMode: "R", dataSpec: { dataType: "STRING" } },
    {
      id: "reportInterval",
      accessMode: "RW",
      dataSpec: { dataType: "INT", defaultValue: "600", validator: { min: 60, max: 86400 } },
    },
    {
      id: "temperatureUnit",
      accessMode: "RW",
      dataSpec: { dataType: "ENUM", defaultValue: "0", mapping: { 0: "Celsius", 1: "Fahrenheit" } },
    },
    {
      id: "ledEnabled",
      accessMode: "RW",
      dataSpec: { dataType: "BOOL", defaultValue: "true", mapping: bool },
    },
    { id: "armed", accessMode: "W", dataSpec: { dataType: "BOOL", mapping: { true: "Armed" } } },
    {
      id: "alarmThreshold",
      accessMode: "RW",
      dataSpec: { dataType: "STRUCT", defaultValue: '{"alarmThreshold.high":30,"alarmThreshold.low":0}' },
    },
    {
      id: "alarmThreshold.high",
      accessMode: "RW",
      dataSpec: {
        dataType: "FLOAT",
        parentId: "alarmThreshold",
        defaultValue: "30",
        validator: { min: -40, max: 125, required: true },
      },
    },
    {
      id: "alarmThreshold.low",
      accessMode: "RW",
      dataSpec: {
        dataType: "FLOAT",
        parentId: "alarmThreshold",
        defaultValue: "0",
        validator: { min: -40, max: 125, required: true },
      },
    },
    {
      id: "alarmThreshold.enabled",
      accessMode: "RW",
      dataSpec: { dataType: "BOOL", parentId: "alarmThreshold", mapping: bool },
    },
    { id: "wan", accessMode: "RW", dataSpec: { dataType: "STRUCT" } },
    {
      id: "wan.mtu",
      accessMode: "RW",
      dataSpec: {
        dataType: "INT",
        parentId: "wan",
        defaultValue: "1500",
        validator: { min: 576, max: 1500 },
      },
    },
    { id: "wan.mac", accessMode: "R", dataSpec: { dataType: "STRING", parentId: "wan" } },
    {
      id: "label",
      accessMode: "W",
      dataSpec: {
        dataType: "STRING",
        encoding: "UTF8",
        defaultValue: "sensor",
        validator: { minSize: 1, maxSize: 8 },
      },
    },
    {
      id: "networkKey",
      accessMode: "W",
      dataSpec: { dataType: "STRING", encoding: "HEX", validator: { minSize: 32, maxSize: 32 } },
    },
    { id: "macAddress", accessMode: "W", dataSpec: { dataType: "STRING", encoding: "HEX" } },
    { id: "apn", accessMode: "RW", dataSpec: { dataType: "STRING", encoding: "ASCII" } },
    { id: "token", accessMode: "W", dataSpec: { dataType: "STRING", encoding: "BASE64", defaultValue: "" } },
    {
      id: "schedule",
      accessMode: "RW",
      dataSpec: {
        dataType: "ARRAY",
        elementDataType: "INT",
        defaultValue: "[360,1320]",
        validator: { minSize: 1, maxSize: 3, min: 0, max: 1439 },
      },
    },
    {
      id: "subnets",
      accessMode: "RW",
      dataSpec: { dataType: "ARRAY", elementDataType: "STRING", validator: { maxSize: 2 } },
    },
    {
      id: "modes",
      accessMode: "RW",
      dataSpec: { dataType: "ARRAY", elementDataType: "ENUM", mapping: { 0: "off", 1: "on" } },
    },
    { id: "rules", accessMode: "RW", dataSpec: { dataType: "ARRAY", elementDataType: "STRUCT" } },
    {
      id: "rules.from",
      accessMode: "RW",
      dataSpec: { dataType: "INT", parentId: "rules", validator: { required: true } },
    },
    { id: "rules.to", accessMode: "RW", dataSpec: { dataType: "INT", parentId: "rules" } },
    {
      id: "heartbeat",
      accessMode: "RW",
      dataSpec: { dataType: "LONG", defaultValue: "60", validator: { min: 10, max: 4294967296 } },
    },
    { id: "counter", accessMode: "RW", dataSpec: { dataType: "LONG", defaultValue: "9007199254740993" } },
    { id: "maintenanceDate", accessMode: "RW", dataSpec: { dataType: "DATE", defaultValue: "0" } },
    {
      id: "setpoint",
      accessMode: "RW",
      dataSpec: { dataType: "DOUBLE", defaultValue: "21.5", validator: { min: 5, max: 35 } },
    },
    { id: "gain", accessMode: "RW", dataSpec: { dataType: "FLOAT" } },
    { id: "firmwareVersion", accessMode: "R", dataSpec: { dataType: "STRING" } },
  ],
});

/** The fixture model, indexed as the provider indexes it. */
export const MODEL: IndexedModel = indexModel(FIXTURE_MODEL);
