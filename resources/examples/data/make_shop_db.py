"""Build shop.sqlite, the read-only database of the self-healing text-to-SQL example.

Deterministic: a fixed seed and fixed dates, so running it twice gives identical rows (the file is
rebuilt from scratch). Run: `python resources/examples/data/make_shop_db.py [output path]`.
Also writes shop_schema.txt, the schema description a text-to-SQL planner prompt includes.
"""

from __future__ import annotations

import random
import sqlite3
import sys
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent

SCHEMA = """\
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    city TEXT NOT NULL,
    country TEXT NOT NULL,
    signup_date TEXT NOT NULL          -- ISO date, e.g. 2024-03-17
);
CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    category TEXT NOT NULL,            -- Books, Electronics, Garden, Kitchen, Toys
    price_cents INTEGER NOT NULL,      -- unit price in cents
    stock INTEGER NOT NULL
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    order_date TEXT NOT NULL,          -- ISO date
    status TEXT NOT NULL               -- placed, shipped, delivered, cancelled
);
CREATE TABLE order_items (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders(id),
    product_id INTEGER NOT NULL REFERENCES products(id),
    quantity INTEGER NOT NULL,
    unit_price_cents INTEGER NOT NULL  -- price paid per unit (products may have changed price since)
);
"""

FIRST = ["Ada", "Ben", "Chloe", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemi",
         "Luca", "Maya", "Nils", "Olga", "Pablo", "Qiu", "Rosa", "Sami", "Tara"]
LAST = ["Lovelace", "Okafor", "Martin", "Ivanov", "Garcia", "Haddad", "Hopper", "Tanaka", "Silva",
        "Berg", "Adeyemi", "Rossi", "Cohen", "Larsen", "Petrova"]
CITIES = [("Lisbon", "Portugal"), ("Berlin", "Germany"), ("Lagos", "Nigeria"), ("Osaka", "Japan"),
          ("Toronto", "Canada"), ("Lyon", "France"), ("Austin", "USA"), ("Milan", "Italy")]
PRODUCTS = {
    "Books": ["Graph Algorithms", "The SQL Cookbook", "Deep Work", "Dune", "Cosmos", "Sapiens"],
    "Electronics": ["USB-C Hub", "Noise-Cancelling Headphones", "Mechanical Keyboard", "4K Monitor",
                    "Wireless Mouse", "Webcam"],
    "Garden": ["Pruning Shears", "Watering Can", "Seed Starter Kit", "Garden Hose"],
    "Kitchen": ["Chef's Knife", "Cast Iron Pan", "French Press", "Spice Rack", "Cutting Board"],
    "Toys": ["Puzzle 1000 pcs", "Building Blocks", "Kite", "Chess Set"],
}
STATUSES = ["placed", "shipped", "delivered", "delivered", "delivered", "cancelled"]


def build(path: Path) -> None:
    rng = random.Random(20240101)
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    customers = []
    for i in range(1, 61):
        first, last = FIRST[(i * 7) % len(FIRST)], LAST[(i * 11) % len(LAST)]
        city, country = CITIES[rng.randrange(len(CITIES))]
        signup = date(2023, 1, 1) + timedelta(days=rng.randrange(500))
        customers.append((i, f"{first} {last}", f"{first.lower()}.{last.lower()}{i}@example.com",
                          city, country, signup.isoformat()))
    conn.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?)", customers)
    products = []
    for category, names in PRODUCTS.items():
        for name in names:
            products.append((len(products) + 1, name, category, rng.randrange(499, 39999, 100),
                             rng.randrange(0, 250)))
    conn.executemany("INSERT INTO products VALUES (?,?,?,?,?)", products)
    orders, items = [], []
    for order_id in range(1, 181):
        customer = customers[rng.randrange(len(customers))]
        day = date.fromisoformat(customer[5]) + timedelta(days=rng.randrange(1, 300))
        orders.append((order_id, customer[0], day.isoformat(), rng.choice(STATUSES)))
        for product in rng.sample(products, rng.randint(1, 4)):
            price = product[3] if rng.random() < 0.8 else product[3] - 100
            items.append((len(items) + 1, order_id, product[0], rng.randint(1, 3), price))
    conn.executemany("INSERT INTO orders VALUES (?,?,?,?)", orders)
    conn.executemany("INSERT INTO order_items VALUES (?,?,?,?,?)", items)
    conn.commit()
    conn.execute("VACUUM")
    conn.close()


def describe() -> str:
    return ("SQLite database of a small online shop (read-only). Money is in integer cents; dates "
            "are ISO text (YYYY-MM-DD), compare them as strings or with date().\n\n" + SCHEMA)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "shop.sqlite"
    build(target)
    (target.parent / "shop_schema.txt").write_text(describe(), encoding="utf-8")
    print(f"wrote {target}")
