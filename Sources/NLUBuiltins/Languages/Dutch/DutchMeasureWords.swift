/// Dutch units of age and dimension (Recognizers-Text's Dutch AgeModel and DimensionModel specs, read for their
/// meaning): "29 jaar", "10 jaar oud", "95 jarige leeftijd", "6-jarige", "3 inch", "660 vierkante meter", "2500 kuub",
/// "188 mijl per uur", "driehonderd MB"; units named with the English names those specs use ("Year", "Square meter").
enum DutchMeasureWords {
    static func add(to units: inout UnitLexicon) {
        for (name, words) in [("Year", ["jaar", "jaren"]), ("Month", ["maand", "maanden"]), ("Week", ["week", "weken"]),
                              ("Day", ["dag", "dagen"])] {
            units.age(name, alsoDuration: true, words)
            units.age(name, words.map { "\($0) oud" })
        }
        units.age("Year", ["jarige", "jarige leeftijd"])

        units.dimension("Kilometer", ["km", "kilometer", "kilometers"])
        units.dimension("Hectometer", ["hm", "hectometer"])
        units.dimension("Decameter", ["dam", "decameter"])
        units.dimension("Meter", ["m", "meter", "meters"])
        units.dimension("Decimeter", ["dm", "decimeter"])
        units.dimension("Centimeter", ["cm", "centimeter", "centimeters"])
        units.dimension("Millimeter", ["mm", "millimeter", "millimeters"])
        units.dimension("Micrometer", ["µm", "μm", "micrometer", "micron"])
        units.dimension("Nanometer", bare: ["nanometer", "millimicron"], ["nm", "nanometer", "millimicron"])
        units.dimension("Mile", ["mijl", "mijlen"])
        units.dimension("Yard", ["yard", "yards"])
        units.dimension("Foot", ["voet"])
        units.dimension("Inch", ["inch", "duim"])
        units.dimension("Light year", ["lichtjaar", "lichtjaren"])
        units.dimension("Square meter", bare: ["vierkante meter"], ["m2", "m²", "m^2", "vierkante meter", "vierkante meters"])
        units.dimension("Square kilometer", ["km2", "km²", "km^2", "vierkante kilometer", "vierkante kilometers"])
        units.dimension("Square centimeter", ["cm2", "cm²", "vierkante centimeter"])
        units.dimension("Hectare", ["ha", "hectare", "hectares"])
        units.dimension("Acre", ["are", "acre"])
        units.dimension("Cubic meter", ["m3", "m³", "kuub", "kubieke meter", "kubieke meters"])
        units.dimension("Cubic foot", ["kubieke voet"])
        units.dimension("Liter", ["l", "liter", "liters"])
        units.dimension("Milliliter", ["ml", "milliliter", "milliliters"])
        units.dimension("Barrel", ["vat", "vaten"])
        units.dimension("Teaspoon", ["tl", "theelepel", "theelepels"])
        units.dimension("Tablespoon", ["el", "eetlepel", "eetlepels"])
        units.dimension("Kilogram", ["kg", "kilogram", "kilo", "kilos"])
        units.dimension("Gram", ["g", "gram", "grammen"])
        units.dimension("Milligram", ["mg", "milligram"])
        units.dimension("Ton", ["t", "ton", "tonnen"])
        units.dimension("Metric ton", ["metrische ton", "metrische tonnen"])
        units.dimension("Pound", ["pond"])
        units.dimension("Ounce", ["ons"])
        units.dimension("Bit", ["bit", "bits"])
        units.dimension("Byte", ["byte", "bytes"])
        for (prefix, name) in [("k", "Kilo"), ("m", "Mega"), ("g", "Giga"), ("t", "Tera")] {
            units.dimension("\(name)bit", ["\(prefix)b", "\(prefix)bit", "\(name.lowercased())bit", "\(name.lowercased())bits"])
            units.dimension("\(name)byte", ["\(name.lowercased())byte", "\(name.lowercased())bytes"])
            units.dimension("\(name)byte", caseSensitive: true, ["\(prefix.uppercased())B", "\(prefix)B"])
        }
        units.dimension("Kilometer per hour", ["km/u", "km/h", "kilometer per uur"])
        units.dimension("Mile per hour", ["mph", "mijl per uur"])
        units.dimension("Meter per second", bare: ["meter per seconde", "m/s"], ["m/s", "meter per seconde"])
        units.dimension("Knot", ["knoop", "knopen"])
        units.dimension("Degree", angle: true, ["graden", "graad", "°"])
        units.dimension("Radian", ["rad", "radiaal", "radialen"])
        units.dimension("Turn", ["slag", "slagen", "draai", "draaien"])
    }
}
