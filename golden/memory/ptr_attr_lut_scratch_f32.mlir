global  constant @lut16_attr alignment = 16 <f32: [0.000000e+00, -5.000000e-01, 1.000000e+00, -1.500000e+00, 2.000000e+00, -2.500000e+00, 3.000000e+00, -3.500000e+00, 4.000000e+00, -4.500000e+00, 5.000000e+00, -5.500000e+00, 6.000000e+00, -6.500000e+00, 7.000000e+00, -7.500000e+00]> : tile<16xf32>
entry @ptr_attr_lut_scratch_f32(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = get_global @lut16_attr : tile<ptr<f32, <none>>>
  %10 = reshape %9 : tile<ptr<f32, <none>>> -> tile<1xptr<f32, <none>>>
  %11 = broadcast %10 : tile<1xptr<f32, <none>>> -> tile<128xptr<f32, <none>>>
  %12 = constant <i32: 15> : tile<128xi32>
  %13 = andi %7, %12 : tile<128xi32>
  %14 = offset %11, %13 : tile<128xptr<f32, <none>>>, tile<128xi32> -> tile<128xptr<f32, <none>>>
  %15 = ptr_to_int %14 : tile<128xptr<f32, <none>>> -> tile<128xi64>
  %16 = ptr_to_int %9 : tile<ptr<f32, <none>>> -> tile<i64>
  %17 = reshape %16 : tile<i64> -> tile<1xi64>
  %18 = broadcast %17 : tile<1xi64> -> tile<128xi64>
  %19 = subi %15, %18 : tile<128xi64>
  %20 = constant <i64: 0> : tile<128xi64>
  %21 = cmpi greater_than_or_equal %19, %20, signed : tile<128xi64> -> tile<128xi1>
  %22 = constant <i64: 64> : tile<i64>
  %23 = constant <i64: 4> : tile<i64>
  %24 = subi %22, %23 : tile<i64>
  %25 = reshape %24 : tile<i64> -> tile<1xi64>
  %26 = broadcast %25 : tile<1xi64> -> tile<128xi64>
  %27 = cmpi less_than_or_equal %19, %26, signed : tile<128xi64> -> tile<128xi1>
  %28 = andi %21, %27 : tile<128xi1>
  assert %28, "kernel `ptr_attr_lut_scratch_f32`: `load_ptr_tko`: a lane addresses memory outside @lut16_attr (at pointers.py:176)" : tile<128xi1>
  %29, %30 = load_ptr_tko weak %14 token=%8 : tile<128xptr<f32, <none>>> -> tile<128xf32>, token
  %31 = alloca num_elem = 128, alignment = 16 : tile<ptr<f32, <none>>>
  %32 = reshape %31 : tile<ptr<f32, <none>>> -> tile<1xptr<f32, <none>>>
  %33 = broadcast %32 : tile<1xptr<f32, <none>>> -> tile<128xptr<f32, <none>>>
  %34 = constant <i32: 0> : tile<128xi32>
  %35 = iota : tile<128xi32>
  %36 = addi %34, %35 : tile<128xi32>
  %37 = offset %33, %36 : tile<128xptr<f32, <none>>>, tile<128xi32> -> tile<128xptr<f32, <none>>>
  %38 = ptr_to_int %37 : tile<128xptr<f32, <none>>> -> tile<128xi64>
  %39 = ptr_to_int %31 : tile<ptr<f32, <none>>> -> tile<i64>
  %40 = reshape %39 : tile<i64> -> tile<1xi64>
  %41 = broadcast %40 : tile<1xi64> -> tile<128xi64>
  %42 = subi %38, %41 : tile<128xi64>
  %43 = cmpi greater_than_or_equal %42, %20, signed : tile<128xi64> -> tile<128xi1>
  %44 = constant <i64: 512> : tile<i64>
  %45 = subi %44, %23 : tile<i64>
  %46 = reshape %45 : tile<i64> -> tile<1xi64>
  %47 = broadcast %46 : tile<1xi64> -> tile<128xi64>
  %48 = cmpi less_than_or_equal %42, %47, signed : tile<128xi64> -> tile<128xi1>
  %49 = andi %43, %48 : tile<128xi1>
  assert %49, "kernel `ptr_attr_lut_scratch_f32`: `store_ptr_tko`: a lane addresses memory outside its scratch buffer (at pointers.py:178)" : tile<128xi1>
  %50 = store_ptr_tko weak %37, %29 token=%30 : tile<128xptr<f32, <none>>>, tile<128xf32> -> token
  %51 = constant <i32: 127> : tile<128xi32>
  %52 = subi %51, %35 : tile<128xi32>
  %53 = offset %33, %52 : tile<128xptr<f32, <none>>>, tile<128xi32> -> tile<128xptr<f32, <none>>>
  %54 = ptr_to_int %53 : tile<128xptr<f32, <none>>> -> tile<128xi64>
  %55 = subi %54, %41 : tile<128xi64>
  %56 = cmpi greater_than_or_equal %55, %20, signed : tile<128xi64> -> tile<128xi1>
  %57 = cmpi less_than_or_equal %55, %47, signed : tile<128xi64> -> tile<128xi1>
  %58 = andi %56, %57 : tile<128xi1>
  assert %58, "kernel `ptr_attr_lut_scratch_f32`: `load_ptr_tko`: a lane addresses memory outside its scratch buffer (at pointers.py:179)" : tile<128xi1>
  %59, %60 = load_ptr_tko weak %53 token=%50 : tile<128xptr<f32, <none>>> -> tile<128xf32>, token
  %61 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %62 = make_tensor_view %61, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %63 = make_partition_view %62 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %64 = store_view_tko weak %59, %63[%1] token = %60 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
