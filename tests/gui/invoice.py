"""A BOLT11 invoice for the real-window test's withdrawals: `invoice.py SATS` prints one for SATS sats, signed by a
fresh random node key, so no mint knows it (a melt of it is an outgoing payment, which the test mint's FakeWallet
keeps pending). Run with the nutshell venv's Python, which has the `bolt11` package nutshell itself uses."""

import hashlib
import os
import sys
import time

from bolt11 import Bolt11, Feature, Features, FeatureState, MilliSatoshi, TagChar, Tags, encode

tags = Tags()
tags.add(TagChar.features, Features.from_feature_list({Feature.payment_secret: FeatureState.supported}))
tags.add(TagChar.description, "AIUI real-window test withdrawal")
tags.add(TagChar.expire_time, 3600)
secret = os.urandom(32).hex()
tags.add(TagChar.payment_secret, secret)
tags.add(TagChar.payment_hash, hashlib.sha256(secret.encode()).hexdigest())
invoice = Bolt11(currency="bc", amount_msat=MilliSatoshi(int(sys.argv[1]) * 1000), date=int(time.time()), tags=tags)
print(encode(invoice, os.urandom(32).hex()))
