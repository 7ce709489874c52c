"""The one place that speaks gRPC (transport) and maps domain values to protobuf (codec,
record_codec); gen/ is made by scripts/gen_proto.py and never edited by hand."""
