"""Tables on the network: ``cardcli serve`` hosts one, browsers and ``cardcli join`` take its seats.

The server is the single authority: it runs the one rules engine, writes the
record as the game goes and sends each client only what its seat may see
(:mod:`cardcli.serve.protocol`, documented in ``docs/protocol.md``).
"""
