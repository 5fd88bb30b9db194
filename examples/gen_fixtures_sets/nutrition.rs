//! The `nutrition` set (a food catalogue): its documents, its log, and its README prose.

use super::*;

#[derive(Clone, Copy)]
pub(super) enum Style {
    Meat,
    Fish,
    Plant,
    Grain,
    Product,
    Drink,
    Nut,
    Spice,
}

impl Style {
    fn mods(self) -> &'static [&'static str] {
        match self {
            Style::Meat => &[
                "separable lean only, trimmed to 0\" fat",
                "separable lean and fat, trimmed to 1/8\" fat",
                "separable lean only, trimmed to 1/8\" fat, choice",
                "separable lean and fat, trimmed to 0\" fat, select",
            ],
            Style::Fish => &["wild", "farmed", "canned in water", "canned in oil"],
            Style::Plant => &[
                "raw",
                "frozen",
                "canned, regular pack",
                "canned, no salt added",
            ],
            Style::Grain => &["regular", "enriched", "unenriched", "whole grain"],
            Style::Product => &[
                "prepared from recipe",
                "commercially prepared",
                "reduced fat",
                "dry mix",
            ],
            Style::Drink => &[
                "ready-to-drink",
                "prepared from powder",
                "canned",
                "bottled",
            ],
            Style::Nut => &["dry roasted", "oil roasted", "raw", "blanched"],
            Style::Spice => &["ground", "whole"],
        }
    }
    fn preps(self) -> &'static [&'static str] {
        match self {
            Style::Meat => &[
                "raw",
                "cooked, braised",
                "cooked, broiled",
                "cooked, roasted",
                "cooked, grilled",
            ],
            Style::Fish => &["raw", "cooked, dry heat", "cooked, moist heat", "smoked"],
            Style::Plant => &[
                "unprepared",
                "boiled, drained, without salt",
                "boiled, drained, with salt",
                "microwaved",
            ],
            Style::Grain => &["dry", "cooked", "cooked, without salt", "instant, prepared"],
            Style::Product => &[
                "plain",
                "enriched",
                "with added vitamins",
                "unenriched",
                "toasted",
            ],
            Style::Drink => &["sweetened", "unsweetened", "with added calcium", "diet"],
            Style::Nut => &["without salt added", "with salt added"],
            Style::Spice => &["dried", "fresh"],
        }
    }
}

/// Food group, group code, items, style, base descriptions. The top group is 20% of items.
pub(super) const GROUPS: [(&str, u32, usize, Style, &[&str]); 25] = [
    (
        "Beef Products",
        13,
        160,
        Style::Meat,
        &[
            "Beef, chuck, blade roast",
            "Beef, rib, eye, small end (ribs 10-12)",
            "Beef, round, top round, steak",
            "Beef, brisket, flat half",
            "Beef, loin, tenderloin steak",
            "Beef, short loin, t-bone steak",
            "Beef, flank, steak",
            "Beef, plate, inside skirt steak",
            "Beef, shoulder, top blade steak",
            "Beef, bottom sirloin, tri-tip roast",
        ],
    ),
    (
        "Vegetables and Vegetable Products",
        11,
        88,
        Style::Plant,
        &[
            "Broccoli",
            "Carrots",
            "Spinach",
            "Peas, green",
            "Corn, sweet, yellow",
            "Beans, snap, green",
            "Cauliflower",
            "Brussels sprouts",
            "Kale",
            "Asparagus",
        ],
    ),
    (
        "Baked Products",
        18,
        72,
        Style::Product,
        &[
            "Bread, whole-wheat",
            "Bread, rye",
            "Bagels, plain",
            "Muffins, blueberry",
            "Croissants, butter",
            "Crackers, saltines",
            "Cookies, oatmeal",
            "Pie, apple",
            "Tortillas, flour",
            "Rolls, dinner",
        ],
    ),
    (
        "Poultry Products",
        5,
        56,
        Style::Meat,
        &[
            "Chicken, broilers or fryers, breast",
            "Chicken, broilers or fryers, thigh",
            "Chicken, broilers or fryers, wing",
            "Turkey, whole, light meat",
            "Turkey, whole, dark meat",
            "Duck, domesticated",
            "Chicken, ground",
        ],
    ),
    (
        "Sweets",
        19,
        48,
        Style::Product,
        &[
            "Candies, milk chocolate",
            "Candies, hard",
            "Syrups, maple",
            "Honey",
            "Ice creams, vanilla",
            "Puddings, chocolate",
            "Jams and preserves",
            "Frostings, vanilla",
        ],
    ),
    (
        "Fruits and Fruit Juices",
        9,
        42,
        Style::Plant,
        &[
            "Apples",
            "Bananas",
            "Oranges, navel",
            "Strawberries",
            "Blueberries",
            "Peaches, yellow",
            "Pineapple",
            "Grapes, red or green",
            "Mangos",
            "Pears",
        ],
    ),
    (
        "Pork Products",
        10,
        37,
        Style::Meat,
        &[
            "Pork, fresh, loin, center rib (chops)",
            "Pork, fresh, shoulder, arm picnic",
            "Pork, fresh, ham (leg), whole",
            "Pork, fresh, spareribs",
            "Pork, cured, bacon",
        ],
    ),
    (
        "Beverages",
        14,
        33,
        Style::Drink,
        &[
            "Beverages, coffee, brewed",
            "Beverages, tea, black",
            "Beverages, orange juice drink",
            "Beverages, cola",
            "Beverages, almond milk",
            "Beverages, energy drink",
            "Beverages, lemonade",
        ],
    ),
    (
        "Legumes and Legume Products",
        16,
        30,
        Style::Plant,
        &[
            "Beans, black, mature seeds",
            "Chickpeas (garbanzo beans), mature seeds",
            "Lentils, mature seeds",
            "Beans, kidney, red, mature seeds",
            "Soybeans, mature seeds",
            "Tofu, firm",
            "Peanut butter, smooth style",
        ],
    ),
    (
        "Dairy and Egg Products",
        1,
        28,
        Style::Product,
        &[
            "Butter, salted",
            "Cheese, cheddar",
            "Cheese, mozzarella, whole milk",
            "Milk, whole, 3.25% milkfat",
            "Yogurt, Greek, plain",
            "Egg, whole",
            "Cream, heavy whipping",
        ],
    ),
    (
        "Finfish and Shellfish Products",
        15,
        26,
        Style::Fish,
        &[
            "Fish, salmon, Atlantic",
            "Fish, tuna, light",
            "Fish, cod, Pacific",
            "Crustaceans, shrimp",
            "Mollusks, mussel, blue",
            "Fish, trout, rainbow",
        ],
    ),
    (
        "Soups, Sauces, and Gravies",
        6,
        24,
        Style::Product,
        &[
            "Soup, chicken noodle",
            "Soup, tomato",
            "Soup, minestrone",
            "Sauce, pasta, marinara",
            "Gravy, brown",
            "Soup, cream of mushroom",
        ],
    ),
    (
        "Cereal Grains and Pasta",
        20,
        22,
        Style::Grain,
        &[
            "Rice, white, long-grain",
            "Rice, brown, medium-grain",
            "Pasta, spaghetti",
            "Quinoa",
            "Oats",
            "Couscous",
            "Barley, pearled",
        ],
    ),
    (
        "Breakfast Cereals",
        8,
        20,
        Style::Grain,
        &[
            "Cereals ready-to-eat, corn flakes",
            "Cereals ready-to-eat, granola",
            "Cereals ready-to-eat, bran flakes",
            "Cereals, oats, instant, fortified",
            "Cereals, farina",
        ],
    ),
    (
        "Fast Foods",
        21,
        18,
        Style::Product,
        &[
            "Fast foods, hamburger, single patty",
            "Fast foods, cheeseburger, double patty",
            "Fast foods, french fries",
            "Fast foods, chicken nuggets",
            "Fast foods, pizza, cheese",
            "Fast foods, burrito, bean and cheese",
        ],
    ),
    (
        "Lamb, Veal, and Game Products",
        17,
        16,
        Style::Meat,
        &[
            "Lamb, leg, whole (shank and sirloin)",
            "Lamb, loin",
            "Veal, shoulder, whole",
            "Game meat, bison, ground",
            "Game meat, venison",
        ],
    ),
    (
        "Sausages and Luncheon Meats",
        7,
        14,
        Style::Product,
        &[
            "Frankfurter, beef",
            "Bologna, pork",
            "Salami, dry or hard",
            "Sausage, Italian, pork",
            "Ham, sliced, regular",
        ],
    ),
    (
        "Nut and Seed Products",
        12,
        13,
        Style::Nut,
        &[
            "Nuts, almonds",
            "Nuts, walnuts, English",
            "Nuts, cashew nuts",
            "Seeds, sunflower seed kernels",
            "Seeds, chia seeds",
        ],
    ),
    (
        "Baby Foods",
        3,
        11,
        Style::Product,
        &[
            "Babyfood, cereal, rice",
            "Babyfood, fruit, applesauce",
            "Babyfood, vegetables, carrots",
            "Babyfood, meat, chicken",
        ],
    ),
    (
        "Fats and Oils",
        4,
        10,
        Style::Product,
        &[
            "Oil, olive, salad or cooking",
            "Oil, canola",
            "Margarine, regular",
            "Shortening, vegetable",
            "Mayonnaise, regular",
        ],
    ),
    (
        "Snacks",
        25,
        8,
        Style::Product,
        &[
            "Snacks, potato chips, plain",
            "Snacks, popcorn, air-popped",
            "Snacks, pretzels, hard",
            "Snacks, tortilla chips",
        ],
    ),
    (
        "Meals, Entrees, and Side Dishes",
        22,
        7,
        Style::Product,
        &[
            "Lasagna, cheese, frozen",
            "Macaroni and cheese, box mix",
            "Burrito, beef and bean, frozen",
            "Pot pie, chicken, frozen",
        ],
    ),
    (
        "Restaurant Foods",
        36,
        6,
        Style::Product,
        &[
            "Restaurant, Chinese, fried rice",
            "Restaurant, Italian, spaghetti with meat sauce",
            "Restaurant, Mexican, cheese enchilada",
            "Restaurant, family style, pancakes",
        ],
    ),
    (
        "Spices and Herbs",
        2,
        6,
        Style::Spice,
        &[
            "Spices, pepper, black",
            "Spices, cinnamon, ground",
            "Spices, basil",
            "Spices, paprika",
            "Spices, turmeric",
        ],
    ),
    (
        "American Indian/Alaska Native Foods",
        35,
        5,
        Style::Product,
        &[
            "Bread, blue corn, Navajo",
            "Stew, mutton, Navajo",
            "Salmon, smoked, Alaska Native",
            "Berries, salmonberries (Alaska Native)",
        ],
    ),
];

/// Nutrient number, description, unit, range of values in hundredths.
pub(super) const NUTRIENTS: [(&str, &str, &str, i64, i64); 26] = [
    ("203", "Protein", "g", 0, 3_500),
    ("204", "Total lipid (fat)", "g", 0, 4_000),
    ("205", "Carbohydrate, by difference", "g", 0, 8_000),
    ("208", "Energy", "kcal", 1_500, 60_000),
    ("255", "Water", "g", 100, 9_500),
    ("207", "Ash", "g", 0, 500),
    ("269", "Sugars, total", "g", 0, 6_000),
    ("291", "Fiber, total dietary", "g", 0, 1_500),
    ("301", "Calcium, Ca", "mg", 0, 50_000),
    ("303", "Iron, Fe", "mg", 0, 1_500),
    ("304", "Magnesium, Mg", "mg", 0, 20_000),
    ("305", "Phosphorus, P", "mg", 0, 60_000),
    ("306", "Potassium, K", "mg", 0, 90_000),
    ("307", "Sodium, Na", "mg", 0, 150_000),
    ("309", "Zinc, Zn", "mg", 0, 1_200),
    ("320", "Vitamin A, RAE", "µg", 0, 80_000),
    ("401", "Vitamin C, total ascorbic acid", "mg", 0, 12_000),
    ("404", "Thiamin", "mg", 0, 150),
    ("405", "Riboflavin", "mg", 0, 120),
    ("406", "Niacin", "mg", 0, 1_500),
    ("415", "Vitamin B-6", "mg", 0, 150),
    ("418", "Vitamin B-12", "µg", 0, 900),
    ("601", "Cholesterol", "mg", 0, 40_000),
    ("606", "Fatty acids, total saturated", "g", 0, 2_000),
    ("645", "Fatty acids, total monounsaturated", "g", 0, 2_000),
    ("646", "Fatty acids, total polyunsaturated", "g", 0, 1_800),
];
pub(super) const SERVINGS: [(i64, &str); 8] = [
    (10, "oz"),
    (30, "oz"),
    (10, "cup"),
    (5, "cup, chopped"),
    (10, "serving"),
    (10, "tbsp"),
    (1_000, "g"),
    (10, "piece"),
];

pub(super) fn food(rng: &mut Rng, id: String, group: &str, description: String) -> J {
    let tags: Vec<J> = {
        let mut seen = BTreeSet::new();
        description
            .split(", ")
            .map(|s| s.to_lowercase())
            .filter(|s| seen.insert(s.clone()))
            .take(6)
            .map(|s| obj! {"name": s})
            .collect()
    };
    let n = rng.range(8, 14) as usize;
    let mut chosen: Vec<usize> = (5..NUTRIENTS.len()).collect();
    rng.shuffle(&mut chosen);
    chosen.truncate(n - 5);
    chosen.sort();
    let nutrients: Vec<J> = (0..5)
        .chain(chosen)
        .map(|i| {
            let (nid, desc, units, lo, hi) = NUTRIENTS[i];
            obj! {"id": nid, "description": desc, "nutritionValue": dec(rng.range(lo, hi), 2), "units": units}
        })
        .collect();
    let servings: Vec<J> = (0..rng.range(1, 3))
        .map(|_| {
            let (amount, unit) = *rng.pick(&SERVINGS);
            let grams = match unit {
                "oz" => amount * 2_835 / 10,
                "g" => amount * 100,
                _ => rng.range(500, 25_000),
            };
            obj! {"amount": dec(amount, 1), "description": unit, "weightInGrams": dec(grams, 2)}
        })
        .collect();
    obj! {
        "id": id,
        "description": description,
        "tags": tags,
        "version": if rng.chance(150) { 2 } else { 1 },
        "isFromSurvey": rng.chance(100),
        "foodGroup": group,
        "manufacturerName": "",
        "commonName": "",
        "nutrients": nutrients,
        "servings": servings,
    }
}

pub(super) fn nutrition() -> Set {
    let mut rng = Rng(0x6e75_7472_6974_696f);
    let mut docs = Vec::new();
    for &(group, code, n, style, bases) in &GROUPS {
        let mut combos: Vec<String> = bases
            .iter()
            .flat_map(|b| {
                style
                    .mods()
                    .iter()
                    .flat_map(move |m| style.preps().iter().map(move |p| format!("{b}, {m}, {p}")))
            })
            .collect();
        assert!(
            combos.len() >= n,
            "{group}: {} descriptions for {n} items",
            combos.len()
        );
        rng.shuffle(&mut combos);
        combos.truncate(n);
        combos.sort();
        for (i, description) in combos.into_iter().enumerate() {
            let id = format!("{code:02}{:03}", i + 1);
            docs.push(food(&mut rng, id, group, description));
        }
    }
    docs.sort_by(|a, b| a.str("id").cmp(b.str("id")));

    // The log: reads only, no times (a catalogue loaded once, then browsed).
    let group_picker = Picker::new(GROUPS.iter().map(|g| g.2 as u64));
    let mut log = Vec::new();
    let random_tag = |rng: &mut Rng, d: &J| -> String {
        match d.get("tags") {
            Some(J::Arr(tags)) => tags[rng.below(tags.len() as u64) as usize]
                .str("name")
                .to_string(),
            _ => unreachable!(),
        }
    };
    let shape_specs: [(&str, u64, usize, usize, &[&str]); 4] = [
        (
            "foodGroup",
            9_000,
            70,
            4,
            &[
                "SELECT * FROM c WHERE c.foodGroup = @foodGroup",
                "SELECT c.id, c.description FROM c WHERE c.foodGroup = @foodGroup ORDER BY c.description",
                "SELECT VALUE COUNT(1) FROM c WHERE c.foodGroup = @foodGroup",
                "SELECT c.description, n.nutritionValue FROM c JOIN n IN c.nutrients WHERE c.foodGroup = @foodGroup AND n.id = '203' AND n.nutritionValue > 20",
            ],
        ),
        (
            "id query",
            1_000,
            20,
            2,
            &["SELECT * FROM c WHERE c.id = @id"],
        ),
        (
            "tag",
            3_000,
            36,
            2,
            &[
                "SELECT c.id, c.description FROM c WHERE ARRAY_CONTAINS(c.tags, {\"name\": @tag})",
                "SELECT c.id, c.description FROM c JOIN t IN c.tags WHERE t.name = @tag",
            ],
        ),
        (
            "foodGroup+tag",
            1_000,
            14,
            0,
            &[
                "SELECT c.id, c.description, c.servings FROM c WHERE c.foodGroup = @foodGroup AND ARRAY_CONTAINS(c.tags, {\"name\": @tag}, true)",
            ],
        ),
    ];
    let mut seq = 0;
    for (shape, total, lines, plain, templates) in shape_specs {
        let counts = shape_counts(&mut rng, total, lines, plain);
        for (i, count) in counts.into_iter().enumerate() {
            let sql = templates[i % templates.len()];
            let group = GROUPS[group_picker.pick(&mut rng)].0;
            let in_group: Vec<&J> = docs
                .iter()
                .filter(|d| d.str("foodGroup") == group)
                .collect();
            let d = in_group[rng.below(in_group.len() as u64) as usize];
            let tag = random_tag(&mut rng, d);
            let mut params: Vec<(&str, J)> = Vec::new();
            let mut fixed = Vec::new();
            for (name, value, path) in [
                ("@foodGroup", J::from(group), "/foodGroup"),
                ("@id", J::from(d.str("id")), "/id"),
                ("@tag", J::from(tag), ""),
            ] {
                if uses(sql, name) {
                    params.push((name, value));
                    if !path.is_empty() {
                        fixed.push((path, 1));
                    }
                }
            }
            seq += 1;
            log.push(LogLine::query(
                query_text(sql, &params, count, None, i >= lines),
                count,
                seq,
                shape,
                fixed,
            ));
        }
    }
    for count in apportion(6_000, &line_weights(&mut rng, 110), 1) {
        let d = &docs[rng.below(docs.len() as u64) as usize];
        seq += 1;
        log.push(LogLine {
            text: obj! {"op": "read", "id": d.str("id"), "known": obj! {"/id": d.str("id")}, "count": count}
                .to_json(),
            count,
            ts_ms: seq,
            kind: Kind::Read,
            shape: "point read by id",
            fixed: vec![("/id", 1)],
            writes: vec![],
        });
    }
    // No times: interleave the lines in a seeded random order.
    let mut keys: Vec<u64> = log.iter().map(|_| rng.next()).collect();
    let mut paired: Vec<(u64, LogLine)> = keys.drain(..).zip(log).collect();
    paired.sort_by_key(|p| p.0);

    Set {
        name: "nutrition",
        docs,
        log: paired.into_iter().map(|p| p.1).collect(),
        shapes: vec![
            (
                "foodGroup",
                "`c.foodGroup = @foodGroup` (list, COUNT, JOIN over `c.nutrients`)",
            ),
            ("point read by id", "`read` with `known` `{\"/id\"}` only"),
            ("id query", "`SELECT * FROM c WHERE c.id = @id`"),
            (
                "tag",
                "`ARRAY_CONTAINS(c.tags, {\"name\": @tag})`, `JOIN t IN c.tags`",
            ),
            (
                "foodGroup+tag",
                "`c.foodGroup = @foodGroup AND ARRAY_CONTAINS(...)`",
            ),
        ],
        candidates: vec![
            Cand::Path("/id"),
            Cand::Path("/foodGroup"),
            Cand::Path("/description"),
            Cand::Path("/version"),
        ],
        top_paths: vec!["/foodGroup"],
    }
}

pub(super) fn nutrition_prose(st: &Stats) -> (String, Vec<Verdict>) {
    let (top, top_docs, top_bytes) = st.top_value("/foodGroup", 0);
    let prose = format!(
        r#"A food catalogue shaped like the USDA nutrient database sample that Microsoft uses in the
Cosmos DB documentation: {docs} foods in the {groups} USDA food groups (their real names and
group codes; ids are 5-digit NDB-style numbers that start with the group code). Each item has
`description`, a `tags` array of `{{name}}`, `version`, `foodGroup`, a `nutrients` array of
`{{id, description, nutritionValue, units}}` (standard nutrient numbers, generated values) and a
`servings` array. Groups are skewed: {top} has {top_docs} items ({top_doc_share} of items,
{top_share} of bytes), the smallest group 5. The file is sorted by id, so it is grouped by
food group.

The log holds reads only and no times, as for a catalogue loaded once and then browsed: with
no writes in the log, the advisor counts each document as one create in file order. Queries
by `foodGroup` (45%, plus 5% by group and tag), point reads whose `known` holds only `/id`
(30%), `c.id = @id` queries (5%), and tag lookups through `ARRAY_CONTAINS` or `JOIN` (15%).
Two traps for a query parser: in `JOIN n IN c.nutrients WHERE c.foodGroup = @foodGroup AND
n.id = '203'`, `n.id` is the nutrient's id, not the item's, so the query does not fix `/id`;
and `t.name = @tag` over `JOIN t IN c.tags` fixes no key path at all.

**What the advisor should say.** It depends on size, and the report must say so.

- At the catalogue's real size (the full USDA set is about 8,800 items, some 15 MB), the
  container is one physical partition: nothing really fans out and no key breaks a limit.
  `/foodGroup` still raises `LOW_CARDINALITY` ({groups} values) but has no violation and the
  most single-partition reads ({group_single} against {id_single} for `/id`); `/id` is just as
  acceptable. Either may rank first at 1 GB.
- At 500 GB `/foodGroup` breaks: {top} reaches 20 GB once the container holds {group_limit}
  (`LOGICAL_PARTITION_LIMIT`), its storage skew is severe, and the id reads and tag lookups
  still fan out ({group_fan}). `/id` fans out the group queries ({id_fan} of reads fan out:
  `FAN_OUT_QUERIES`) but can never break a limit, so it ranks first.
- Replayed in file order (by id, hence group by group), writes arrive one food group at a
  time: an advisor may also report `WRITE_HOTSPOT` for `/foodGroup` (not required).
- `/version` (2 values) and `/description` (unique but never queried by equality: 100%
  fan-out) are obviously wrong.
"#,
        docs = st.documents,
        groups = st.distinct("/foodGroup"),
        top_doc_share = pct(top_docs as f64 / st.documents as f64),
        top_share = pct(top_bytes as f64 / st.doc_bytes as f64),
        group_single = pct(st.fraction("/foodGroup", 0)),
        id_single = pct(st.fraction("/id", 0)),
        group_limit = gb(st.max_container("/foodGroup")),
        group_fan = pct(st.fraction("/foodGroup", 2)),
        id_fan = pct(st.fraction("/id", 2)),
    );
    (
        prose,
        vec![
            Verdict {
                target: "1GB",
                target_bytes: 1_000_000_000,
                best: vec!["/id", "/foodGroup"],
                hand: vec![],
            },
            Verdict {
                target: "500GB",
                target_bytes: 500_000_000_000,
                best: vec!["/id"],
                hand: vec![],
            },
        ],
    )
}
