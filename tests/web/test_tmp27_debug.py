from web.test_house_way_editor import *  # noqa
def test_dbg(app, boss, way_id):
    data = draft(app, way_id)
    original = preset("trump-plaza")
    a, b = data["sections"][8], original["sections"][8]
    for k in set(a) | set(b):
        if a.get(k) != b.get(k):
            if k == "rules":
                for x, y in zip(a[k], b[k]):
                    for kk in set(x) | set(y):
                        if x.get(kk) != y.get(kk):
                            print("RULE", x.get("id"), kk, repr(x.get(kk))[:300], "||", repr(y.get(kk))[:300])
            else:
                print("KEY", k, a.get(k), b.get(k))
    assert 0
