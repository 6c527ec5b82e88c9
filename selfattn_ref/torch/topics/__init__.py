"""The PyTorch twins of the modules of :mod:`selfattn_ref.topics` that have one.

Only :mod:`selfattn_ref.torch.topics.scaling`: the other topics compute the numbers a page
quotes once, in NumPy (the twin test, ``tests/package/test_twins.py``, says why for each).
"""
