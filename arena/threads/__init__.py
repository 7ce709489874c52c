"""The bridges between trio and other threads, each written once: a future completed on
gRPC's or Ray's thread waking trio, a trio loop in a thread of its own, blocking work in
a thread. Below the edges, which both use them.
"""
