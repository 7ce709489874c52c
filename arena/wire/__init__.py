"""The one place that speaks gRPC (client, server, protocol) and maps domain values to
protobuf messages (codec; the record's own codec is arena.records.codec); gen/ is made by
scripts/gen_proto.py and never edited by hand."""
