//! Edits for OpenCV Zoo's block-quantised face models (YuNet, SFace): their weights are
//! stored as 8-bit integers with a scale per block of 9 to 64 values, turned back into
//! floats by `DequantizeLinear` nodes with a `block_size` (ONNX opset 21). ONNX Runtime
//! refuses YuNet's, OpenVINO refuses SFace's, and SFace also lists every weight of the
//! float model it was made from as a graph input that no node reads.
//!
//! - [`fold_dequantize`] computes each `DequantizeLinear` of constant inputs once, as the
//!   operator defines it (`(x - zero_point) * scale`, the scale and zero point of the
//!   block holding `x`), and stores the result as a float initializer under the node's
//!   output name; the node goes, and so do its integer inputs when nothing else reads
//!   them. Then the graph inputs that are constants (initializers) or that no node reads
//!   are dropped, so the image is the model's one input and the runtimes may fold the
//!   rest. The floats are exactly those the runtime would compute: the difference of two
//!   8-bit integers is exact in `f32`, and so the one rounding is the product's.
//! - [`free_image_size`] lets the image input take any height and width (YuNet is
//!   exported for 640 x 640, but its graph reshapes by `-1` and upsamples by scale, so
//!   any multiple of its 32-pixel stride works, as in OpenCV's own detector).

use std::collections::{HashMap, HashSet};

use super::{
    BYTES, DIM_PARAM, FIXED32, FLOAT, GRAPH_INITIALIZER, GRAPH_INPUT, GRAPH_NODE, GRAPH_OUTPUT,
    MODEL_GRAPH, NODE_ATTRIBUTE, Node, SHAPE_DIM, TENSOR_DATA_TYPE, TENSOR_DIMS, TENSOR_FLOAT_DATA,
    TENSOR_NAME, TENSOR_RAW_DATA, TENSOR_TYPE_SHAPE, TYPE_TENSOR, UINT8, VALUE_INFO_NAME,
    VALUE_INFO_TYPE, VARINT, bytes_field, fields, malformed, map_field, packed_varints, put_bytes,
    raw_tensor,
};
use crate::error::{Error, Result};

/// ONNX element types of the quantised weights.
const INT8: u64 = 3;
/// `TensorProto.int32_data`, where 8-bit values may be kept one per int.
const TENSOR_INT32_DATA: u32 = 5;
/// `AttributeProto.name` and `.i`.
const ATTRIBUTE_NAME: u32 = 1;
const ATTRIBUTE_INT: u32 = 3;

/// The model with every `DequantizeLinear` of constant inputs folded into a float
/// initializer and its constant and unread graph inputs dropped (see the module's
/// documentation), and how many nodes were folded.
pub(crate) fn fold_dequantize(model: &[u8]) -> Result<(Vec<u8>, usize)> {
    let folded = std::cell::Cell::new(0);
    let out = map_field(model, MODEL_GRAPH, &|graph| {
        let (graph, n) = fold_graph(graph)?;
        folded.set(folded.get() + n);
        Ok(graph)
    })?;
    Ok((out, folded.get()))
}

/// [`fold_dequantize`] of one `GraphProto`.
fn fold_graph(graph: &[u8]) -> Result<(Vec<u8>, usize)> {
    let graph_fields = fields(graph)?;
    let mut initializers: HashMap<&[u8], &[u8]> = HashMap::new();
    for g in &graph_fields {
        if (g.number, g.wire) == (GRAPH_INITIALIZER, BYTES) {
            initializers.insert(bytes_field(g.bytes, TENSOR_NAME)?, g.bytes);
        }
    }
    let mut nodes = Vec::with_capacity(graph_fields.len());
    for g in &graph_fields {
        nodes.push(if (g.number, g.wire) == (GRAPH_NODE, BYTES) {
            Some(Node::parse(g.bytes)?)
        } else {
            None
        });
    }
    // Each foldable node's position and its float initializer.
    let mut folded: HashMap<usize, Vec<u8>> = HashMap::new();
    for (i, (g, node)) in graph_fields.iter().zip(&nodes).enumerate() {
        let Some(n) = node else { continue };
        let constant = n.inputs.iter().all(|x| initializers.contains_key(x));
        if n.op_type == b"DequantizeLinear"
            && n.domain.is_empty()
            && (2..=3).contains(&n.inputs.len())
            && n.outputs.len() == 1
            && constant
        {
            let tensors: Vec<&[u8]> = n.inputs.iter().map(|x| initializers[x]).collect();
            let (axis, block_size) = quantisation_attributes(g.bytes)?;
            let values = dequantize(&tensors, axis, block_size)?;
            folded.insert(
                i,
                float_initializer(n.outputs[0], &values.dims, &values.data),
            );
        }
    }
    // What the graph still reads once the folded nodes are gone.
    let mut read: HashSet<&[u8]> = HashSet::new();
    for (i, node) in nodes.iter().enumerate() {
        if let Some(n) = node
            && !folded.contains_key(&i)
        {
            read.extend(n.inputs.iter().copied());
        }
    }
    for g in &graph_fields {
        if (g.number, g.wire) == (GRAPH_OUTPUT, BYTES) {
            read.insert(bytes_field(g.bytes, VALUE_INFO_NAME)?);
        }
    }
    let mut dropped: HashSet<&[u8]> = HashSet::new();
    for (i, n) in nodes.iter().enumerate() {
        if let Some(n) = n
            && folded.contains_key(&i)
        {
            dropped.extend(n.inputs.iter().copied().filter(|x| !read.contains(x)));
        }
    }
    let constants: HashSet<Vec<u8>> = initializers
        .keys()
        .filter(|k| !dropped.contains(*k))
        .map(|k| k.to_vec())
        .chain(
            folded
                .keys()
                .filter_map(|i| nodes[*i].as_ref().map(|n| n.outputs[0].to_vec())),
        )
        .collect();

    let mut out = Vec::with_capacity(graph.len() * 4);
    let mut placed = false;
    let mut order: Vec<usize> = folded.keys().copied().collect();
    order.sort_unstable();
    for (i, g) in graph_fields.iter().enumerate() {
        match (g.number, g.wire) {
            (GRAPH_NODE, BYTES) if folded.contains_key(&i) => {}
            (GRAPH_INITIALIZER, BYTES) => {
                if !placed {
                    for j in &order {
                        put_bytes(&mut out, GRAPH_INITIALIZER, &folded[j]);
                    }
                    placed = true;
                }
                if !dropped.contains(bytes_field(g.bytes, TENSOR_NAME)?) {
                    out.extend_from_slice(g.encoded);
                }
            }
            (GRAPH_INPUT, BYTES) => {
                let name = bytes_field(g.bytes, VALUE_INFO_NAME)?;
                if read.contains(name) && !constants.contains(name) {
                    out.extend_from_slice(g.encoded);
                }
            }
            _ => out.extend_from_slice(g.encoded),
        }
    }
    if !placed {
        for j in &order {
            put_bytes(&mut out, GRAPH_INITIALIZER, &folded[j]);
        }
    }
    Ok((out, folded.len()))
}

/// A `DequantizeLinear` node's `axis` (default 1) and `block_size` (default 0: one scale
/// per slice along the axis, or one for the whole tensor).
fn quantisation_attributes(node: &[u8]) -> Result<(i64, u64)> {
    let (mut axis, mut block_size) = (1i64, 0u64);
    for f in fields(node)? {
        if (f.number, f.wire) != (NODE_ATTRIBUTE, BYTES) {
            continue;
        }
        let attribute = fields(f.bytes)?;
        let name = attribute
            .iter()
            .find(|a| (a.number, a.wire) == (ATTRIBUTE_NAME, BYTES))
            .map_or(&[][..], |a| a.bytes);
        let value = attribute
            .iter()
            .find(|a| (a.number, a.wire) == (ATTRIBUTE_INT, VARINT))
            .map(|a| a.varint as i64);
        match (name, value) {
            (b"axis", Some(v)) => axis = v,
            (b"block_size", Some(v)) => {
                block_size = u64::try_from(v).map_err(|_| malformed("negative block_size"))?;
            }
            _ => {}
        }
    }
    Ok((axis, block_size))
}

/// A decoded constant tensor: its dimensions and element type, and its values as `f32`
/// (8-bit integers and floats are exact in it).
struct Values {
    dims: Vec<u64>,
    data: Vec<f32>,
}

fn decode(tensor: &[u8]) -> Result<Values> {
    let (mut dims, mut data_type) = (Vec::new(), 0u64);
    let (mut raw, mut float_data, mut int32_data) = (None, Vec::new(), Vec::new());
    for f in fields(tensor)? {
        match (f.number, f.wire) {
            (TENSOR_DIMS, VARINT) => dims.push(f.varint),
            (TENSOR_DIMS, BYTES) => dims.extend(packed_varints(f.bytes)?),
            (TENSOR_DATA_TYPE, VARINT) => data_type = f.varint,
            (TENSOR_RAW_DATA, BYTES) => raw = Some(f.bytes),
            (TENSOR_FLOAT_DATA, BYTES | FIXED32) => float_data.extend(
                f.bytes
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            ),
            (TENSOR_INT32_DATA, VARINT) => int32_data.push(f.varint as i64 as f32),
            (TENSOR_INT32_DATA, BYTES) => {
                int32_data.extend(
                    packed_varints(f.bytes)?
                        .into_iter()
                        .map(|v| v as i64 as f32),
                );
            }
            _ => {}
        }
    }
    let data = match (data_type, raw) {
        (FLOAT, Some(r)) if r.len() % 4 == 0 => r
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
        (FLOAT, None) => float_data,
        (INT8, Some(r)) => r.iter().map(|&b| f32::from(b as i8)).collect(),
        (UINT8, Some(r)) => r.iter().map(|&b| f32::from(b)).collect(),
        (INT8 | UINT8, None) => int32_data,
        _ => {
            return Err(Error::Model(format!(
                "DequantizeLinear of an unsupported constant (element type {data_type})"
            )));
        }
    };
    let count: u64 = dims.iter().product();
    if data.len() as u64 != count {
        return Err(malformed("a constant's values do not fill its shape"));
    }
    Ok(Values { dims, data })
}

/// `DequantizeLinear` of constant `[x, scale, zero_point?]` (opset 21): per tensor (one
/// scale), per axis (a scale per slice along `axis`), or blocked (`block_size` values of
/// that axis share a scale, the scale tensor the shape of `x` with that axis divided by
/// the block size, rounded up).
fn dequantize(tensors: &[&[u8]], axis: i64, block_size: u64) -> Result<Values> {
    let x = decode(tensors[0])?;
    let scale = decode(tensors[1])?;
    let zero = match tensors.get(2) {
        Some(t) => decode(t)?.data,
        None => vec![0.0; scale.data.len()],
    };
    if zero.len() != scale.data.len() {
        return Err(malformed("a zero point not the shape of its scale"));
    }
    let rank = x.dims.len() as i64;
    let axis = if axis < 0 { axis + rank } else { axis };
    let mut data = Vec::with_capacity(x.data.len());
    if scale.data.len() == 1 {
        data.extend(x.data.iter().map(|v| (v - zero[0]) * scale.data[0]));
        return Ok(Values { dims: x.dims, data });
    }
    let a = usize::try_from(axis)
        .ok()
        .filter(|a| *a < x.dims.len())
        .ok_or_else(|| malformed("DequantizeLinear axis out of range"))?;
    let outer: u64 = x.dims[..a].iter().product();
    let along = x.dims[a];
    let inner: u64 = x.dims[a + 1..].iter().product();
    if block_size == 0 {
        // Per axis: one scale per index along it.
        if scale.data.len() as u64 != along {
            return Err(malformed("a DequantizeLinear scale of the wrong shape"));
        }
        for (i, v) in x.data.iter().enumerate() {
            let k = (i / inner.max(1) as usize) % along as usize;
            data.push((v - zero[k]) * scale.data[k]);
        }
        return Ok(Values { dims: x.dims, data });
    }
    // Blocked: the scale has `x`'s shape with `along` cut into blocks.
    let blocks = along.div_ceil(block_size);
    if outer * blocks * inner != scale.data.len() as u64 {
        return Err(malformed("a DequantizeLinear scale of the wrong shape"));
    }
    let [outer, along, inner, blocks, block] =
        [outer, along, inner, blocks, block_size].map(|v| v as usize);
    for o in 0..outer {
        for k in 0..along {
            let s = (o * blocks + k / block) * inner;
            let row = (o * along + k) * inner;
            for j in 0..inner {
                data.push((x.data[row + j] - zero[s + j]) * scale.data[s + j]);
            }
        }
    }
    Ok(Values { dims: x.dims, data })
}

/// A float initializer `name` of `dims`, raw little-endian data.
fn float_initializer(name: &[u8], dims: &[u64], data: &[f32]) -> Vec<u8> {
    let raw: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    raw_tensor(name, dims, FLOAT, &raw)
}

/// The model with the height and width (NCHW dimensions 2 and 3) of its graph input
/// `input` named instead of fixed, so the runtime takes any size.
pub(crate) fn free_image_size(model: &[u8], input: &str) -> Result<Vec<u8>> {
    let found = std::cell::Cell::new(false);
    let out = map_field(model, MODEL_GRAPH, &|graph| {
        let mut out = Vec::with_capacity(graph.len());
        for g in fields(graph)? {
            if (g.number, g.wire) == (GRAPH_INPUT, BYTES)
                && bytes_field(g.bytes, VALUE_INFO_NAME)? == input.as_bytes()
            {
                found.set(true);
                put_bytes(&mut out, GRAPH_INPUT, &free_dims(g.bytes)?);
            } else {
                out.extend_from_slice(g.encoded);
            }
        }
        Ok(out)
    })?;
    if !found.get() {
        return Err(Error::Model(format!("the model has no input {input}")));
    }
    Ok(out)
}

/// A `ValueInfoProto` whose dimensions 2 and 3 become `height` and `width`.
fn free_dims(value_info: &[u8]) -> Result<Vec<u8>> {
    let shape = |s: &[u8]| -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(s.len());
        let mut index = 0;
        for f in fields(s)? {
            if (f.number, f.wire) != (SHAPE_DIM, BYTES) {
                out.extend_from_slice(f.encoded);
                continue;
            }
            let mut d = Vec::new();
            match index {
                2 => put_bytes(&mut d, DIM_PARAM, b"height"),
                3 => put_bytes(&mut d, DIM_PARAM, b"width"),
                _ => d.extend_from_slice(f.bytes),
            }
            put_bytes(&mut out, SHAPE_DIM, &d);
            index += 1;
        }
        Ok(out)
    };
    let tensor = move |t: &[u8]| map_field(t, TENSOR_TYPE_SHAPE, &shape);
    let ty = move |t: &[u8]| map_field(t, TYPE_TENSOR, &tensor);
    map_field(value_info, VALUE_INFO_TYPE, &ty)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::super::{DIM_VALUE, put_key, put_varint};
    use super::*;

    fn int8_tensor(name: &str, dims: &[u64], values: &[i8]) -> Vec<u8> {
        let raw: Vec<u8> = values.iter().map(|v| *v as u8).collect();
        super::super::raw_tensor(name.as_bytes(), dims, INT8, &raw)
    }

    fn attribute(name: &str, value: i64) -> Vec<u8> {
        let mut a = Vec::new();
        put_bytes(&mut a, ATTRIBUTE_NAME, name.as_bytes());
        put_key(&mut a, ATTRIBUTE_INT, VARINT);
        put_varint(&mut a, value as u64);
        put_key(&mut a, 20, VARINT);
        put_varint(&mut a, 2);
        a
    }

    fn value_info(name: &str, dims: &[u64]) -> Vec<u8> {
        let mut shape = Vec::new();
        for &d in dims {
            let mut dim = Vec::new();
            put_key(&mut dim, DIM_VALUE, VARINT);
            put_varint(&mut dim, d);
            put_bytes(&mut shape, SHAPE_DIM, &dim);
        }
        let mut tensor = Vec::new();
        put_key(&mut tensor, 1, VARINT);
        put_varint(&mut tensor, FLOAT);
        put_bytes(&mut tensor, TENSOR_TYPE_SHAPE, &shape);
        let mut ty = Vec::new();
        put_bytes(&mut ty, TYPE_TENSOR, &tensor);
        let mut info = Vec::new();
        put_bytes(&mut info, VALUE_INFO_NAME, name.as_bytes());
        put_bytes(&mut info, VALUE_INFO_TYPE, &ty);
        info
    }

    /// `image -> Conv(w) -> y`, `w = DequantizeLinear(wq, ws, wz)` blocked by 2 along axis
    /// 1 of a 2 x 4 weight, plus an unread input `stale` and a constant input `wz`.
    fn quantised_model() -> Vec<u8> {
        let mut dq =
            super::super::node_bytes(b"dq", b"DequantizeLinear", &[b"wq", b"ws", b"wz"], &[b"w"]);
        put_bytes(&mut dq, NODE_ATTRIBUTE, &attribute("axis", 1));
        put_bytes(&mut dq, NODE_ATTRIBUTE, &attribute("block_size", 2));
        let conv = super::super::node_bytes(b"conv", b"Conv", &[b"image", b"w"], &[b"y"]);
        let mut graph = Vec::new();
        put_bytes(&mut graph, GRAPH_NODE, &dq);
        put_bytes(&mut graph, GRAPH_NODE, &conv);
        put_bytes(
            &mut graph,
            GRAPH_INITIALIZER,
            &int8_tensor("wq", &[2, 4], &[1, -2, 3, -128, 0, 5, 127, -1]),
        );
        put_bytes(
            &mut graph,
            GRAPH_INITIALIZER,
            &super::super::tests::tensor("ws", &[2, 2], &[0.5, 0.25, 2.0, 0.125]),
        );
        put_bytes(
            &mut graph,
            GRAPH_INITIALIZER,
            &int8_tensor("wz", &[2, 2], &[1, 0, -1, 3]),
        );
        put_bytes(
            &mut graph,
            GRAPH_INPUT,
            &value_info("image", &[1, 3, 640, 640]),
        );
        put_bytes(&mut graph, GRAPH_INPUT, &value_info("stale", &[2, 4]));
        put_bytes(&mut graph, GRAPH_INPUT, &value_info("wz", &[2, 2]));
        put_bytes(&mut graph, GRAPH_OUTPUT, &value_info("y", &[1]));
        super::super::tests::graph_model(&graph)
    }

    #[test]
    fn folds_blocked_dequantisation_into_floats_and_drops_constant_inputs() {
        let (folded, n) = fold_dequantize(&quantised_model()).unwrap();
        assert_eq!(n, 1);
        let graph = super::super::tests::graph_fields(&folded);
        let nodes: Vec<_> = graph.iter().filter(|(n, _)| *n == GRAPH_NODE).collect();
        assert_eq!(nodes.len(), 1, "only the Conv is left");
        let inits: Vec<_> = graph
            .iter()
            .filter(|(n, _)| *n == GRAPH_INITIALIZER)
            .collect();
        assert_eq!(inits.len(), 1, "the integers are gone, the floats are in");
        let (dims, values) = super::super::tests::floats(&inits[0].1);
        assert_eq!(dims, vec![2, 4]);
        // Row 0: blocks [1, -2] (zero 1, scale 0.5) and [3, -128] (zero 0, scale 0.25);
        // row 1: [0, 5] (zero -1, scale 2) and [127, -1] (zero 3, scale 0.125).
        assert_eq!(values, vec![0.0, -1.5, 0.75, -32.0, 2.0, 12.0, 15.5, -0.5]);
        let inputs: Vec<_> = graph
            .iter()
            .filter(|(n, _)| *n == GRAPH_INPUT)
            .map(|(_, b)| bytes_field(b, VALUE_INFO_NAME).unwrap().to_vec())
            .collect();
        assert_eq!(inputs, vec![b"image".to_vec()]);
    }

    #[test]
    fn per_tensor_and_per_axis_scales() {
        let x = int8_tensor("x", &[2, 2], &[4, -4, 8, 2]);
        let one = super::super::tests::tensor("s", &[], &[0.5]);
        let v = dequantize(&[&x, &one], 1, 0).unwrap();
        assert_eq!(v.data, vec![2.0, -2.0, 4.0, 1.0]);
        let per_row = super::super::tests::tensor("s", &[2], &[1.0, 0.25]);
        let v = dequantize(&[&x, &per_row], 0, 0).unwrap();
        assert_eq!(v.data, vec![4.0, -4.0, 2.0, 0.5]);
        let wrong = super::super::tests::tensor("s", &[3], &[1.0, 1.0, 1.0]);
        assert!(dequantize(&[&x, &wrong], 0, 0).is_err());
    }

    #[test]
    fn frees_the_image_size() {
        let freed = free_image_size(&quantised_model(), "image").unwrap();
        let graph = super::super::tests::graph_fields(&freed);
        let image = graph
            .iter()
            .find(|(n, b)| {
                *n == GRAPH_INPUT && bytes_field(b, VALUE_INFO_NAME).unwrap() == b"image"
            })
            .unwrap();
        assert_eq!(
            super::super::tensor_dims(&image.1).unwrap(),
            vec![1, 3, -1, -1]
        );
        assert!(free_image_size(&quantised_model(), "photo").is_err());
    }
}
